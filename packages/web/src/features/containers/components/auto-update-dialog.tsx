import type { FloatingTagMode } from '@berth/contracts';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/cn';

/** The tracking levels of an auto-update. */
export const TRACKING_MODES: { value: FloatingTagMode; label: string; hint: string }[] = [
  { value: 'exact', label: 'Respect Tag', hint: 'Only a newer image under the same tag' },
  { value: 'patch', label: 'Patch', hint: 'Tracks x.y.* only' },
  { value: 'minor', label: 'Minor', hint: 'Within the same major version (recommended)' },
  { value: 'latest', label: 'Latest', hint: 'The newest version available' },
];

/**
 * Auto-update for the selected containers: on or off, and how far updates may
 * move the tag. The level selector is disabled while auto-update is off.
 */
export function AutoUpdateDialog({
  count,
  onApply,
  onClose,
}: {
  count: number;
  onApply: (enabled: boolean, mode: FloatingTagMode) => void;
  onClose: () => void;
}) {
  const [enabled, setEnabled] = useState(true);
  const [mode, setMode] = useState<FloatingTagMode>('minor');
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Auto-update for ${count} containers`}
    >
      <div className="mb-4 flex">
        <Switch
          label="Auto-update"
          checked={enabled}
          onCheckedChange={setEnabled}
          className="text-sm text-slate-200"
        >
          Auto-update {enabled ? 'enabled' : 'disabled'}
        </Switch>
      </div>
      <fieldset disabled={!enabled} className="mb-5 space-y-2 disabled:opacity-40">
        <legend className="mb-2 text-xs font-semibold tracking-wide text-slate-400 uppercase">
          Tracking level
        </legend>
        {TRACKING_MODES.map((m) => (
          <label
            key={m.value}
            className={cn(
              'flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2 text-sm',
              mode === m.value ? 'border-accent bg-slate-800/60' : 'border-slate-800',
            )}
          >
            <input
              type="radio"
              name="tracking-level"
              value={m.value}
              checked={mode === m.value}
              onChange={() => setMode(m.value)}
              className="mt-1"
            />
            <span>
              <span className="block text-slate-100">{m.label}</span>
              <span className="block text-xs text-slate-400">{m.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => onApply(enabled, mode)}>Apply</Button>
      </div>
    </Dialog>
  );
}
