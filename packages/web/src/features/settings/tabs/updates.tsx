import { writableSettingsShape } from '@berth/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { useSettings, useUpdateSettings } from '../api/settings-api';
import { useCheckAll } from '../api/updates-settings-api';
import { SettingRow, SettingsSection } from '../components/setting-row';
import { PoliciesEditor } from './updates-policies';
import { RegistryCredentials } from './updates-credentials';

/** Settings → Container Updates. */
export default function UpdatesSettingsTab() {
  const settings = useSettings().data;
  const update = useUpdateSettings();
  const [time, setTime] = useState<string | null>(null);
  const checkAll = useCheckAll();
  if (settings === undefined) return <p className="text-sm text-slate-400">Loading…</p>;

  const saveTime = () => {
    if (time === null) return;
    const value = time.trim();
    setTime(null);
    if (value === settings.update_check_time) return;
    const ok = writableSettingsShape.update_check_time.safeParse(value);
    if (!ok.success) {
      toast.error('Invalid time format. Use HH:MM (24-hour format)');
      return;
    }
    update.mutate(
      { update_check_time: value },
      {
        onError: (err) =>
          toast.error('Failed to update update check time', { description: errorText(err) }),
      },
    );
  };

  return (
    <div className="grid gap-6" data-testid="updates-settings">
      <SettingsSection title="Update checks">
        <SettingRow
          label="Update check time"
          htmlFor="update-check-time"
          description="The daily update check runs at this time (24-hour, your time zone); auto-updates follow it."
        >
          <Input
            id="update-check-time"
            fullWidth={false}
            className="w-24 text-center tabular-nums"
            placeholder="HH:MM"
            value={time ?? settings.update_check_time}
            onChange={(e) => setTime(e.target.value)}
            onBlur={saveTime}
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.currentTarget.blur();
              if (e.key === 'Escape') setTime(null);
            }}
          />
        </SettingRow>
        <SettingRow
          label="Skip compose containers"
          description="Containers managed by Docker Compose are left out of the daily check and auto-update."
        >
          <Switch
            label="Skip compose containers"
            checked={settings.skip_compose_containers}
            onCheckedChange={(on) =>
              update.mutate(
                { skip_compose_containers: on },
                {
                  onError: (err) =>
                    toast.error('Failed to update skip compose containers', {
                      description: errorText(err),
                    }),
                },
              )
            }
          >
            <span className="sr-only">Skip compose containers</span>
          </Switch>
        </SettingRow>
        <SettingRow label="Check all now" description="Checks every container's image now.">
          <Button
            size="sm"
            variant="secondary"
            disabled={checkAll.isPending}
            onClick={() =>
              checkAll.mutate(undefined, {
                onSuccess: (r) => {
                  const text = `Checked ${r.checked}/${r.total} containers, ${r.updates_found} update(s) found`;
                  if (r.errors.length > 0)
                    toast.warning('Update check completed with errors', {
                      description: `${text}. ${r.errors.length} error(s): ${r.errors.slice(0, 3).join('; ')}`,
                    });
                  else toast.success('Update check complete', { description: text });
                },
                onError: (err) =>
                  toast.error('Failed to check for updates', { description: errorText(err) }),
              })
            }
          >
            {checkAll.isPending ? 'Checking…' : 'Check all now'}
          </Button>
        </SettingRow>
      </SettingsSection>
      <PoliciesEditor />
      <RegistryCredentials />
    </div>
  );
}
