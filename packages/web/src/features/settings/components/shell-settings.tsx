import type { GlobalSettings } from '@berth/contracts';
import { toast } from 'sonner';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { useUpdateSettings } from '../api/settings-api';
import { NumberSetting } from './number-setting';
import { SettingRow } from './setting-row';

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
      <NumberSetting
        field={{
          key: 'exec_idle_minutes',
          label: 'Shell idle timeout',
          unit: 'minutes',
          description: 'A shell without input for this long is ended, its process killed.',
        }}
        saved={settings.exec_idle_minutes}
      />
      <ShellToggle
        settings={settings}
        field="exec_recording"
        label="Record what is typed in shells"
        description="Off: only who opened a shell, where, what ran and when it ended go to the audit log. On: the keystrokes are stored too, for admins to read under Audit Log → Shell recordings."
      />
      {settings.exec_recording && (
        <NumberSetting
          field={{
            key: 'exec_recording_days',
            label: 'Keep recordings',
            unit: 'days',
            description: 'Older recordings are deleted.',
          }}
          saved={settings.exec_recording_days}
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
