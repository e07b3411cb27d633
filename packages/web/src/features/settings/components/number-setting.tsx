import {
  SETTING_BOUNDS,
  settingBoundMessage,
  writableSettingsShape,
  type BoundedSetting,
} from '@berth/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { Input } from '@/components/ui/input';
import { errorText } from '@/lib/api-client';
import { useUpdateSettings } from '../api/settings-api';
import { SettingRow } from './setting-row';

/** A bounded number setting as a row: its words, its unit, its bounds from the contract. */
export interface NumberField {
  key: BoundedSetting;
  label: string;
  unit: string;
  description: string;
  /** What 0 means, for the retention fields. */
  zero?: string;
}

/** The toast for a value the bounds refuse (the health check timeout has its own text). */
function refuse(field: NumberField, message: string) {
  if (field.key === 'health_check_timeout_seconds') toast.error(message);
  else toast.error(`Failed to update ${field.label.toLowerCase()}`, { description: message });
}

/** A number saved on blur (or Enter); a refused or failed value goes back to the saved one. */
export function NumberSetting({ field, saved }: { field: NumberField; saved: number }) {
  // null while not being edited: the field shows the saved value (which may change elsewhere).
  const [draft, setDraft] = useState<string | null>(null);
  const update = useUpdateSettings();
  const id = `setting-${field.key}`;
  const { min, max } = SETTING_BOUNDS[field.key];

  const commit = () => {
    if (draft === null) return;
    setDraft(null);
    const trimmed = draft.trim();
    const value = Number(trimmed);
    if (trimmed !== '' && value === saved) return;
    const checked = writableSettingsShape[field.key].safeParse(
      trimmed === '' || !Number.isFinite(value) ? Number.NaN : value,
    );
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const message =
        issue?.code === 'too_small' || issue?.code === 'too_big' || trimmed === ''
          ? settingBoundMessage(field.key)
          : (issue?.message ?? settingBoundMessage(field.key));
      refuse(field, message);
      return;
    }
    // Shown at once; the saved value comes back if the server refuses it (useUpdateSettings).
    update.mutate(
      { [field.key]: checked.data },
      {
        onError: (err) =>
          toast.error(`Failed to update ${field.label.toLowerCase()}`, {
            description: errorText(err),
          }),
      },
    );
  };

  return (
    <SettingRow
      label={field.label}
      htmlFor={id}
      description={
        <>
          {field.description}{' '}
          <span className="text-slate-500" data-testid={`${id}-bounds`}>
            {min}–{max} {field.unit}
            {field.zero !== undefined && ` (0 = ${field.zero})`}
          </span>
        </>
      }
    >
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={draft ?? String(saved)}
        fullWidth={false}
        className="w-24 text-right tabular-nums"
        aria-describedby={`${id}-unit`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.currentTarget.blur();
          if (e.key === 'Escape') setDraft(null);
        }}
      />
      <span id={`${id}-unit`} className="w-16 text-sm text-slate-400">
        {field.unit}
      </span>
    </SettingRow>
  );
}
