import { useState, type SyntheticEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Segmented } from '@/components/ui/segmented';
import { useBreakpoint } from '@/hooks/use-breakpoint';
import {
  parseCustomRange,
  RANGE_PRESETS,
  toLocalInput,
  type RangeChoice,
  type RangePreset,
  type TimeWindow,
} from './range';

type Option = RangePreset | 'custom';
const OPTIONS: { value: Option; label: string }[] = [
  ...RANGE_PRESETS.map((p) => ({ value: p.id, label: p.label })),
  { value: 'custom', label: 'Custom' },
];

/** 1 h … 90 d, or a custom from/to (filled in with the window on screen, to adjust). */
export function RangePicker({
  choice,
  shown,
  onChange,
}: {
  choice: RangeChoice;
  /** The window on screen now, the custom form's starting point. */
  shown: TimeWindow;
  onChange: (choice: RangeChoice) => void;
}) {
  // 44 px targets on a phone.
  const phone = useBreakpoint() === 'phone';
  const [editing, setEditing] = useState(false);
  const [fromText, setFromText] = useState('');
  const [toText, setToText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const value: Option = editing || choice.kind === 'custom' ? 'custom' : choice.preset;

  const pick = (option: Option) => {
    if (option === 'custom') {
      setFromText(toLocalInput(shown.from));
      setToText(toLocalInput(shown.to));
      setError(null);
      setEditing(true);
      return;
    }
    setEditing(false);
    onChange({ kind: 'preset', preset: option });
  };
  const apply = (e: SyntheticEvent) => {
    e.preventDefault();
    const parsed = parseCustomRange(fromText, toText);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    setError(null);
    setEditing(false);
    onChange({ kind: 'custom', ...parsed.window });
  };

  return (
    <div className="space-y-2">
      <Segmented label="Time range" value={value} options={OPTIONS} onChange={pick} />
      {/* Open while a custom range is on screen, to adjust it. */}
      {value === 'custom' && (
        <form
          onSubmit={apply}
          className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-800 p-3"
          aria-label="Custom range"
        >
          <div className="min-w-0 max-md:w-full">
            <Label htmlFor="history-from">From</Label>
            <Input
              id="history-from"
              type="datetime-local"
              value={fromText}
              onChange={(e) => setFromText(e.target.value)}
              size={phone ? 'touch' : 'md'}
            />
          </div>
          <div className="min-w-0 max-md:w-full">
            <Label htmlFor="history-to">To</Label>
            <Input
              id="history-to"
              type="datetime-local"
              value={toText}
              onChange={(e) => setToText(e.target.value)}
              size={phone ? 'touch' : 'md'}
            />
          </div>
          <div className="flex gap-2">
            <Button type="submit" size={phone ? 'touch' : 'sm'}>
              Apply
            </Button>
            {editing && choice.kind === 'preset' && (
              <Button
                type="button"
                variant="ghost"
                size={phone ? 'touch' : 'sm'}
                onClick={() => setEditing(false)}
              >
                Cancel
              </Button>
            )}
          </div>
          <div className="w-full empty:hidden">
            <FormError message={error} />
          </div>
        </form>
      )}
    </div>
  );
}
