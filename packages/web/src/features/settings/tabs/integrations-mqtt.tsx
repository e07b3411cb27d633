import type { MqttSettings, MqttStatus } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorText } from '@/lib/api-client';
import { mqttQueryOptions, useSaveMqtt } from '../api/mqtt-api';
import {
  DraftActions,
  SettingsSection,
  SwitchSettingRow,
  TextSettingRow,
} from '../components/setting-row';

const STATE_TEXT: Record<MqttStatus['state'], string> = {
  disabled: 'Off',
  connecting: 'Connecting…',
  connected: 'Connected',
  disconnected: 'Disconnected',
};

/** Connected, or why not: the broker's own words, so a wrong password or a dead host shows. */
function StatusLine({ status }: { status: MqttStatus }) {
  const color = status.connected
    ? 'text-emerald-300'
    : status.state === 'disabled'
      ? 'text-slate-400'
      : 'text-amber-300';
  return (
    <p className="py-2 text-sm" data-testid="mqtt-status">
      <span className={color}>{STATE_TEXT[status.state]}</span>
      {status.last_error !== null && !status.connected && (
        <span className="text-red-300"> — {status.last_error}</span>
      )}
      {status.connected && (
        <span className="text-slate-400">
          {' '}
          since {new Date(status.since).toLocaleTimeString()}, {status.messages_published} messages
          published
        </span>
      )}
    </p>
  );
}

/** Settings → Integrations → MQTT: the broker, topics, Home Assistant discovery, actions. */
export function MqttSection() {
  const query = useQuery(mqttQueryOptions());
  const save = useSaveMqtt();
  const [draft, setDraft] = useState<MqttSettings | null>(null);
  if (query.isError)
    return (
      <SettingsSection title="MQTT">
        <p className="py-3 text-sm text-red-300">Failed to load the MQTT settings.</p>
      </SettingsSection>
    );
  if (query.data === undefined)
    return (
      <SettingsSection title="MQTT">
        <p className="py-3 text-sm text-slate-400">Loading…</p>
      </SettingsSection>
    );
  const form = draft ?? query.data.settings;
  const set = <K extends keyof MqttSettings>(key: K, value: MqttSettings[K]) =>
    setDraft({ ...form, [key]: value });
  const submit = () =>
    save.mutate(form, {
      onSuccess: () => {
        setDraft(null);
        toast.success('MQTT settings saved');
      },
      onError: (err) =>
        toast.error('Failed to save MQTT settings', { description: errorText(err) }),
    });

  return (
    <SettingsSection title="MQTT">
      <div data-testid="mqtt-settings">
        <StatusLine status={query.data.status} />
        <SwitchSettingRow
          label="Publish to MQTT"
          description="Retained state of every host and container, alerts as events, and an online/offline status with a Last Will."
          checked={form.enabled}
          onChange={(v) => set('enabled', v)}
        />
        <TextSettingRow
          id="mqtt-broker-url"
          label="Broker URL"
          description="mqtt://, mqtts://, ws:// or wss://, with the port."
          placeholder="mqtt://broker.example.com:1883"
          value={form.broker_url}
          onChange={(v) => set('broker_url', v)}
        />
        <TextSettingRow
          id="mqtt-username"
          label="Username"
          description="Blank: connect without credentials."
          value={form.username}
          onChange={(v) => set('username', v)}
        />
        <TextSettingRow
          id="mqtt-password"
          label="Password"
          type="password"
          description="Stored encrypted; leave the dots to keep the stored one."
          value={form.password}
          onChange={(v) => set('password', v)}
        />
        <TextSettingRow
          id="mqtt-topic-prefix"
          label="Topic prefix"
          description="Topics start with it: <prefix>/status, <prefix>/container/<host>/<name>/state, …"
          value={form.topic_prefix}
          onChange={(v) => set('topic_prefix', v)}
        />
        <SwitchSettingRow
          label="Home Assistant discovery"
          description="Each container becomes a device with sensors and start, stop and restart buttons."
          checked={form.discovery_enabled}
          onChange={(v) => set('discovery_enabled', v)}
        />
        <TextSettingRow
          id="mqtt-discovery-prefix"
          label="Discovery prefix"
          description="Home Assistant's discovery topic prefix."
          value={form.discovery_prefix}
          onChange={(v) => set('discovery_prefix', v)}
        />
        <SwitchSettingRow
          label="Allow actions from MQTT"
          description="Carry out start, stop and restart commands sent to the command topics. Off: they are ignored and logged."
          checked={form.allow_actions}
          onChange={(v) => set('allow_actions', v)}
        />
        <DraftActions
          dirty={draft !== null}
          saving={save.isPending}
          onDiscard={() => setDraft(null)}
          onSave={submit}
        />
      </div>
    </SettingsSection>
  );
}
