import {
  SETTING_BOUNDS,
  settingBoundMessage,
  writableSettingsShape,
  type GlobalSettings,
} from '@berth/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { useUpdateSettings } from '../api/settings-api';
import { SettingRow } from './setting-row';

type ShellNumber = 'exec_idle_minutes' | 'exec_recording_days';
type ShellSwitch = 'exec_operators' | 'exec_recording';

/**
 * Container shells (Settings → System): whether operators may open them (admins always may,
 * viewers never), how long one may sit idle, and whether typed input is recorded, for how long.
 */
export function ShellSettings({ settings }: { settings: GlobalSettings }) {
  return (
    <>
      <ShellToggle
        settings={settings}
        field="exec_operators"
        label="Operators may open container shells"
        description="Admins always may; viewers never. A shell reaches everything its container does (files, secrets, networks)."
      />
      <ShellMinutes
        settings={settings}
        field="exec_idle_minutes"
        label="Shell idle timeout"
        unit="minutes"
        description="A shell without input for this long is ended, its process killed."
      />
      <ShellToggle
        settings={settings}
        field="exec_recording"
        label="Record what is typed in shells"
        description="Off: only who opened a shell, where, what ran and when it ended go to the audit log. On: the keystrokes are stored too."
      />
      {settings.exec_recording && (
        <ShellMinutes
          settings={settings}
          field="exec_recording_days"
          label="Keep recordings"
          unit="days"
          description="Older recordings are deleted."
        />
      )}
    </>
  );
}

function ShellToggle({
  settings,
  field,
  label,
  description,
}: {
  settings: GlobalSettings;
  field: ShellSwitch;
  label: string;
  description: string;
}) {
  const update = useUpdateSettings();
  return (
    <SettingRow label={label} description={description}>
      <Switch
        label={label}
        checked={settings[field]}
        onCheckedChange={(on) =>
          update.mutate(
            { [field]: on },
            {
              onError: (err) =>
                toast.error(`Failed to update ${label.toLowerCase()}`, {
                  description: errorText(err),
                }),
            },
          )
        }
      >
        <span className="sr-only">{label}</span>
      </Switch>
    </SettingRow>
  );
}

/** A number saved on blur (or Enter); a refused value goes back to the saved one. */
function ShellMinutes({
  settings,
  field,
  label,
  unit,
  description,
}: {
  settings: GlobalSettings;
  field: ShellNumber;
  label: string;
  unit: string;
  description: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const update = useUpdateSettings();
  const saved = settings[field];
  const id = `setting-${field}`;
  const { min, max } = SETTING_BOUNDS[field];
  const commit = () => {
    if (draft === null) return;
    setDraft(null);
    const value = Number(draft.trim());
    if (value === saved) return;
    const checked = writableSettingsShape[field].safeParse(
      draft.trim() === '' ? Number.NaN : value,
    );
    if (!checked.success) {
      toast.error(`Failed to update ${label.toLowerCase()}`, {
        description: settingBoundMessage(field),
      });
      return;
    }
    update.mutate(
      { [field]: checked.data },
      {
        onError: (err) =>
          toast.error(`Failed to update ${label.toLowerCase()}`, { description: errorText(err) }),
      },
    );
  };
  return (
    <SettingRow
      label={label}
      htmlFor={id}
      description={
        <>
          {description}{' '}
          <span className="text-slate-500">
            {min}–{max} {unit}
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
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.currentTarget.blur();
          if (e.key === 'Escape') setDraft(null);
        }}
      />
      <span className="w-16 text-sm text-slate-400">{unit}</span>
    </SettingRow>
  );
}
