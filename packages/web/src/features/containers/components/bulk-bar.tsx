import { containerKeyOf } from '@berth/contracts';
import type { BatchRequestInput, Container } from '@berth/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { usePhone } from '@/hooks/use-breakpoint';
import { errorText } from '@/lib/api-client';
import { useStartBatch } from '../api/batch-api';
import { parseTagList } from '../lib/tag-list';
import { AutoUpdateDialog } from './auto-update-dialog';
import { SelectionTags } from './selection-tags';

type Power = 'start' | 'stop' | 'restart';
const POWER_LABEL: Record<Power, string> = { start: 'Start', stop: 'Stop', restart: 'Restart' };
const POWER_DOING: Record<Power, string> = {
  start: 'Starting',
  stop: 'Stopping',
  restart: 'Restarting',
};

/**
 * The bar of actions on the selected containers; each starts a batch job. It
 * sticks to the bottom of whatever scrolls the table (the page, or the host modal).
 */
export function BulkBar({
  selected,
  onStarted,
}: {
  selected: Container[];
  onStarted: (jobId: string) => void;
}) {
  const start = useStartBatch();
  // 44 px controls on a phone.
  const size = usePhone() ? 'touch' : 'sm';
  const [confirm, setConfirm] = useState<Power | null>(null);
  const [autoUpdate, setAutoUpdate] = useState(false);
  const [tags, setTags] = useState('');
  const [tagError, setTagError] = useState<string | null>(null);
  const ids = selected.map(containerKeyOf);

  const run = async (request: Omit<BatchRequestInput, 'scope' | 'ids'>, progress: string) => {
    try {
      const { job_id } = await start.mutateAsync({ scope: 'container', ids, ...request });
      toast.success('Batch job started', {
        description: `Job ID: ${job_id}. Progress will be tracked in the panel.`,
      });
      toast.info(progress);
      onStarted(job_id);
    } catch (err) {
      toast.error('Failed to start batch job', { description: errorText(err, 'Unknown error') });
    }
  };
  const runTags = (action: 'add-tags' | 'remove-tags') => {
    const { tags: list, error } = parseTagList(tags);
    if (list === null) {
      setTagError(error);
      return;
    }
    setTagError(null);
    setTags('');
    const verb = action === 'add-tags' ? 'Adding' : 'Removing';
    void run(
      { action, params: { tags: list } },
      `${verb} ${list.length} tags to ${ids.length} containers...`,
    );
  };

  return (
    <div
      data-testid="bulk-bar"
      className="sticky bottom-2 z-20 mt-4 flex flex-wrap items-center gap-2 rounded-xl border border-slate-700 bg-slate-900/95 px-4 py-3 shadow-lg backdrop-blur max-md:max-h-[40vh] max-md:overflow-y-auto max-md:px-3"
    >
      <span className="mr-2 text-sm text-slate-200">{selected.length} selected</span>
      {(['start', 'stop', 'restart'] as const).map((action) => (
        <Button key={action} size={size} variant="secondary" onClick={() => setConfirm(action)}>
          {POWER_LABEL[action]}
        </Button>
      ))}
      <Button
        size={size}
        variant="secondary"
        onClick={() =>
          void run({ action: 'check-updates' }, `Checking updates for ${ids.length} containers...`)
        }
      >
        Check Updates
      </Button>
      <Button
        size={size}
        variant="secondary"
        onClick={() => void run({ action: 'update' }, `Updating ${ids.length} containers...`)}
      >
        Update
      </Button>
      <Input
        aria-label="Tags for selected containers"
        placeholder="tag-a, tag-b"
        size={size}
        fullWidth={false}
        className="w-44"
        value={tags}
        aria-invalid={tagError !== null}
        onChange={(e) => {
          setTags(e.target.value);
          setTagError(null);
        }}
      />
      <Button size={size} variant="secondary" onClick={() => runTags('add-tags')}>
        Add Tags
      </Button>
      <Button size={size} variant="secondary" onClick={() => runTags('remove-tags')}>
        Remove Tags
      </Button>
      {tagError !== null && (
        <span role="alert" className="text-xs text-red-300">
          {tagError}
        </span>
      )}
      <Select
        aria-label="Auto-restart for selected containers"
        size={size}
        value=""
        onChange={(e) => {
          const enabled = e.target.value === 'on';
          void run(
            { action: 'set-auto-restart', params: { enabled } },
            `${enabled ? 'Enabling' : 'Disabling'} auto-restart for ${ids.length} containers...`,
          );
        }}
      >
        <option value="" disabled>
          Auto-restart…
        </option>
        <option value="on">Enable auto-restart</option>
        <option value="off">Disable auto-restart</option>
      </Select>
      <Button size={size} variant="secondary" onClick={() => setAutoUpdate(true)}>
        Auto-update…
      </Button>
      <Select
        aria-label="Desired state for selected containers"
        size={size}
        value=""
        onChange={(e) => {
          const desired = e.target.value === 'should_run' ? 'should_run' : 'on_demand';
          const label = desired === 'should_run' ? 'Should Run' : 'On-Demand';
          void run(
            { action: 'set-desired-state', params: { desired_state: desired } },
            `Setting desired state to "${label}" for ${ids.length} containers...`,
          );
        }}
      >
        <option value="" disabled>
          Desired state…
        </option>
        <option value="should_run">Should Run</option>
        <option value="on_demand">On-Demand</option>
      </Select>
      <SelectionTags
        selected={selected}
        onPick={(tag) => {
          const current = tags.split(',').map((t) => t.trim());
          if (!current.includes(tag)) setTags([...current.filter((t) => t !== ''), tag].join(', '));
          setTagError(null);
        }}
      />
      {autoUpdate && (
        <AutoUpdateDialog
          count={selected.length}
          onClose={() => setAutoUpdate(false)}
          onApply={(enabled, mode) => {
            setAutoUpdate(false);
            void run(
              { action: 'set-auto-update', params: { enabled, floating_tag_mode: mode } },
              `${enabled ? 'Enabling' : 'Disabling'} auto-update for ${ids.length} containers...`,
            );
          }}
        />
      )}
      {confirm !== null && (
        <Dialog
          open
          onOpenChange={(open) => !open && setConfirm(null)}
          title={`${POWER_LABEL[confirm]} ${selected.length} containers?`}
        >
          <ul
            className="mb-4 max-h-48 overflow-y-auto text-sm text-slate-300"
            data-testid="confirm-list"
          >
            {selected.map((c) => (
              <li key={containerKeyOf(c)}>
                {c.name} <span className="text-slate-500">on {c.host_name}</span>
              </li>
            ))}
          </ul>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                const action = confirm;
                setConfirm(null);
                void run({ action }, `${POWER_DOING[action]} ${ids.length} containers...`);
              }}
            >
              {POWER_LABEL[confirm]}
            </Button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
