import type { GlobalSettings } from '@berth/contracts';
import { toast } from 'sonner';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { useSettings, useUpdateSettings } from '../api/settings-api';
import { SettingRow, SettingsSection } from '../components/setting-row';
import { NumberSetting, type NumberField } from '../components/number-setting';
import { ShellSettings } from '../components/shell-settings';

const GROUPS: { title: string; fields: NumberField[] }[] = [
  {
    title: 'Monitoring',
    fields: [
      {
        key: 'polling_interval',
        label: 'Polling interval',
        unit: 'seconds',
        description: 'How often container and host stats are read and pushed to the screens.',
      },
      {
        key: 'connection_timeout',
        label: 'Connection timeout',
        unit: 'seconds',
        description: 'How long Berth waits for a host’s engine to accept a connection.',
      },
      {
        key: 'health_check_timeout_seconds',
        label: 'Health check timeout',
        unit: 'seconds',
        description: 'How long an HTTP health check may take before it counts as failed.',
      },
    ],
  },
  {
    title: 'Auto-restart',
    fields: [
      {
        key: 'max_retries',
        label: 'Max retries',
        unit: 'attempts',
        description: 'Restart attempts for a container that stopped unexpectedly.',
      },
      {
        key: 'retry_delay',
        label: 'Retry delay',
        unit: 'seconds',
        description: 'The wait between two restart attempts.',
      },
    ],
  },
  {
    title: 'Retention',
    fields: [
      {
        key: 'event_retention_days',
        label: 'Event retention',
        unit: 'days',
        description: 'Older events are removed by the nightly maintenance.',
        zero: 'keep forever',
      },
      {
        key: 'alert_retention_days',
        label: 'Alert retention',
        unit: 'days',
        description: 'Resolved alerts older than this are removed by the nightly maintenance.',
        zero: 'keep forever',
      },
      {
        key: 'audit_retention_days',
        label: 'Audit log retention',
        unit: 'days',
        description: 'Audit log entries older than this are removed by the nightly maintenance.',
        zero: 'keep forever',
      },
      {
        key: 'unused_tag_retention_days',
        label: 'Unused tag retention',
        unit: 'days',
        description: 'Tags that no host or container has carried for this long are removed.',
        zero: 'keep forever',
      },
    ],
  },
  {
    title: 'Metrics history',
    fields: [
      {
        key: 'history_10s_retention_hours',
        label: '10-second history',
        unit: 'hours',
        description:
          'How long the finest history (CPU, memory, network, block I/O) is kept before only its 1-minute roll-up is left. Applies within a minute.',
      },
      {
        key: 'history_1m_retention_hours',
        label: '1-minute history',
        unit: 'hours',
        description: 'How long 1-minute points (with their lows and highs) are kept.',
      },
      {
        key: 'history_15m_retention_hours',
        label: '15-minute history',
        unit: 'hours',
        description: 'How long 15-minute points are kept: the longest history a chart can show.',
      },
    ],
  },
];

function AutoRestartDefault({ settings }: { settings: GlobalSettings }) {
  const update = useUpdateSettings();
  const label = 'Default auto-restart';
  return (
    <SettingRow
      label={label}
      description="Restart containers that stop unexpectedly unless a container says otherwise."
    >
      <Switch
        label={label}
        checked={settings.default_auto_restart}
        onCheckedChange={(on) =>
          // The cache goes back to the saved value when this fails (see useUpdateSettings).
          update.mutate(
            { default_auto_restart: on },
            {
              onError: (err) =>
                toast.error('Failed to update default auto-restart', {
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

/** Logs can hold secrets (tokens, connection strings): viewers read them only if allowed. */
function ViewerLogs({ settings }: { settings: GlobalSettings }) {
  const update = useUpdateSettings();
  const label = 'Viewers may read container logs';
  return (
    <SettingRow
      label={label}
      description="Off: viewers see no Logs tab or page, and the API refuses them logs. Logs can hold secrets that containers print."
    >
      <Switch
        label={label}
        checked={settings.viewer_logs}
        onCheckedChange={(on) =>
          update.mutate(
            { viewer_logs: on },
            {
              onError: (err) =>
                toast.error('Failed to update viewer logs', { description: errorText(err) }),
            },
          )
        }
      >
        <span className="sr-only">{label}</span>
      </Switch>
    </SettingRow>
  );
}

/** The System tab, within the settings' bounds: numbers save on blur, the switch on change. */
export default function SystemSettingsTab() {
  const settings = useSettings();
  if (settings.isError)
    return (
      <p className="text-sm text-red-300">Failed to load settings: {settings.error.message}</p>
    );
  if (settings.data === undefined) return <p className="text-sm text-slate-400">Loading…</p>;
  const data = settings.data;
  return (
    <div className="space-y-6">
      {GROUPS.map((group) => (
        <SettingsSection key={group.title} title={group.title}>
          {group.title === 'Auto-restart' && <AutoRestartDefault settings={data} />}
          {group.fields.map((field) => (
            <NumberSetting key={field.key} field={field} saved={data[field.key]} />
          ))}
        </SettingsSection>
      ))}
      <SettingsSection title="Viewers">
        <ViewerLogs settings={data} />
      </SettingsSection>
      <SettingsSection title="Container shells">
        <ShellSettings settings={data} />
      </SettingsSection>
    </div>
  );
}
