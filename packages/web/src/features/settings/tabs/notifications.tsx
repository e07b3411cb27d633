import {
  CHANNEL_FIELDS,
  CHANNEL_TYPE_LABELS,
  channelConfigProblem,
  NOTIFICATION_CHANNEL_TYPES,
  type ChannelConfig,
  type NotificationChannel,
  type NotificationChannelType,
} from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  Bell,
  BellRing,
  Hash,
  MonitorSmartphone,
  Mail,
  MessageCircle,
  MessageSquare,
  Pencil,
  Plus,
  RadioTower,
  Send,
  Smartphone,
  Trash2,
  Users,
  Webhook,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormFooter } from '@/components/ui/form-footer';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { notificationChannelsQueryOptions, useChannelMutations } from '../api/notifications-api';
import { DeleteChannel } from '../components/delete-channel';
import { SettingsSection } from '../components/setting-row';
import { SUBSCRIPTION_GONE, WebPushDevice } from '../components/web-push-device';
import { deviceName } from '../lib/web-push';

const ICONS: Record<NotificationChannelType, LucideIcon> = {
  telegram: Send,
  discord: MessageSquare,
  slack: Hash,
  pushover: Smartphone,
  gotify: Bell,
  smtp: Mail,
  webhook: Webhook,
  ntfy: BellRing,
  teams: Users,
  google_chat: MessageCircle,
  mqtt: RadioTower,
  web_push: MonitorSmartphone,
};

type DialogState =
  | { mode: 'create' }
  | { mode: 'edit'; channel: NotificationChannel }
  | { mode: 'delete'; channel: NotificationChannel }
  | null;

/** Settings → Notifications: channels. */
export default function NotificationsSettingsTab() {
  const list = useQuery(notificationChannelsQueryOptions());
  const { update, test } = useChannelMutations();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [testing, setTesting] = useState<number | null>(null);

  const runTest = (c: NotificationChannel) => {
    setTesting(c.id);
    test.mutate(c.id, {
      onSuccess: (r) => {
        if (r.success) toast.success('Test notification sent successfully!');
        else toast.error(`Test failed: ${r.error ?? 'Unknown error'}`);
      },
      onError: (err) => toast.error(`Test failed: ${errorText(err)}`),
      onSettled: () => setTesting(null),
    });
  };

  return (
    <div className="grid gap-6" data-testid="notifications-settings">
      <SettingsSection title="Notification channels">
        <p className="py-2 text-xs text-slate-400">
          Alert rules send to the channels they name. Tokens, passwords and webhook addresses are
          stored encrypted and never shown again in full.
        </p>
        {list.isError && (
          <p className="py-2 text-sm text-red-300">Failed to load notification channels.</p>
        )}
        <ul className="divide-y divide-slate-800" data-testid="channel-list">
          {(list.data ?? []).map((c) => {
            const Icon = ICONS[c.type];
            return (
              <li key={c.id} className="py-3" data-testid={`channel-${c.name}`}>
                <div className="flex items-center gap-3 text-sm">
                  <Icon className="h-5 w-5 shrink-0 text-slate-300" aria-label={c.type} />
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium text-slate-100">{c.name}</p>
                    <p className="text-xs text-slate-500">
                      {CHANNEL_TYPE_LABELS[c.type]}
                      {c.type === 'web_push' && typeof c.config.device === 'string'
                        ? ` · ${c.config.device}`
                        : ''}
                    </p>
                  </div>
                  <Switch
                    label={`Enable ${c.name}`}
                    checked={c.enabled}
                    onCheckedChange={(on) =>
                      update.mutate(
                        { id: c.id, body: { enabled: on } },
                        { onError: () => toast.error('Failed to toggle channel') },
                      )
                    }
                  >
                    <span className="text-xs text-slate-400">
                      {c.enabled ? 'Enabled' : 'Disabled'}
                    </span>
                  </Switch>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={testing === c.id}
                    onClick={() => runTest(c)}
                  >
                    <Zap className="h-4 w-4" /> {testing === c.id ? 'Testing…' : 'Test'}
                  </Button>
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Edit ${c.name}`}
                    onClick={() => setDialog({ mode: 'edit', channel: c })}
                  >
                    <Pencil className="h-4 w-4" />
                  </Button>
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Delete ${c.name}`}
                    onClick={() => setDialog({ mode: 'delete', channel: c })}
                  >
                    <Trash2 className="h-4 w-4" />
                  </Button>
                </div>
                {c.last_error !== null && (
                  <p className="mt-1 pl-8 text-xs text-red-300" data-testid="channel-error">
                    Last delivery failed: {c.last_error}
                  </p>
                )}
              </li>
            );
          })}
          {list.data?.length === 0 && (
            <li className="py-3 text-sm text-slate-500">No notification channels configured</li>
          )}
        </ul>
        <div className="py-3">
          <Button size="sm" onClick={() => setDialog({ mode: 'create' })}>
            <Plus className="h-4 w-4" /> Add channel
          </Button>
        </div>
      </SettingsSection>
      {dialog?.mode === 'create' && <ChannelForm onClose={() => setDialog(null)} />}
      {dialog?.mode === 'edit' && (
        <ChannelForm channel={dialog.channel} onClose={() => setDialog(null)} />
      )}
      {dialog?.mode === 'delete' && (
        <DeleteChannel channel={dialog.channel} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}

function initialConfig(
  type: NotificationChannelType,
  channel?: NotificationChannel,
): ChannelConfig {
  const out: ChannelConfig = {};
  for (const f of CHANNEL_FIELDS[type]) {
    const stored = channel?.config[f.key];
    // Secrets come back masked: the field starts blank and blank keeps them.
    if (f.secret) out[f.key] = '';
    else out[f.key] = stored ?? f.default ?? (f.input === 'checkbox' ? false : '');
  }
  return out;
}

function ChannelForm({ channel, onClose }: { channel?: NotificationChannel; onClose: () => void }) {
  const { create, update } = useChannelMutations();
  const editing = channel !== undefined;
  const [type, setType] = useState<NotificationChannelType>(channel?.type ?? 'telegram');
  const [name, setName] = useState(channel?.name ?? '');
  const [enabled, setEnabled] = useState(channel?.enabled ?? true);
  const [config, setConfig] = useState<ChannelConfig>(() => initialConfig(type, channel));
  const [error, setError] = useState<string | null>(null);
  const keep = new Set(
    CHANNEL_FIELDS[type]
      .filter((f) => f.secret && editing && typeof channel.config[f.key] === 'string')
      .map((f) => f.key),
  );

  const submit = () => {
    if (name.trim() === '') {
      setError('Channel name is required');
      return;
    }
    if (type === 'web_push' && config.endpoint === '' && !keep.has('endpoint')) {
      setError(editing ? SUBSCRIPTION_GONE : 'Subscribe this device first.');
      return;
    }
    const problem = channelConfigProblem(type, config, keep);
    if (problem !== null) {
      setError(problem.message);
      return;
    }
    setError(null);
    if (editing) {
      update.mutate(
        { id: channel.id, body: { name: name.trim(), config, enabled } },
        {
          onSuccess: () => {
            toast.success('Channel updated successfully');
            onClose();
          },
          onError: (err) => toast.error(`Failed to update channel: ${errorText(err)}`),
        },
      );
    } else {
      create.mutate(
        { name: name.trim(), type, config, enabled },
        {
          onSuccess: () => {
            toast.success('Channel created successfully');
            onClose();
          },
          onError: (err) => toast.error(`Failed to create channel: ${errorText(err)}`),
        },
      );
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={editing ? 'Edit notification channel' : 'Add notification channel'}
      size="lg"
    >
      <form
        noValidate
        className="grid max-h-[70vh] gap-3 overflow-y-auto text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="grid gap-1">
          <span className="text-slate-300">Type</span>
          <Select
            aria-label="Type"
            value={type}
            disabled={editing}
            onChange={(e) => {
              const next = e.target.value as NotificationChannelType;
              setType(next);
              setConfig(initialConfig(next));
              setError(null);
              // One channel per device: its name says which, until the user says otherwise.
              if (next === 'web_push') {
                const here = deviceName(navigator.userAgent);
                setConfig({ ...initialConfig(next), device: here });
                if (name.trim() === '') setName(here);
              }
            }}
          >
            {NOTIFICATION_CHANNEL_TYPES.map((t) => (
              <option key={t} value={t}>
                {CHANNEL_TYPE_LABELS[t]}
              </option>
            ))}
          </Select>
          {editing && (
            <span className="text-xs text-slate-500">The type cannot change after creation.</span>
          )}
        </label>
        <label className="grid gap-1">
          <span className="text-slate-300">Name</span>
          <Input value={name} onChange={(e) => setName(e.target.value)} placeholder="On-call" />
        </label>
        {type === 'web_push' && (
          <WebPushDevice
            {...(channel === undefined ? {} : { channel })}
            config={config}
            onSubscribed={(sub) => setConfig((c) => ({ ...c, ...sub }))}
            onDevice={(device) => setConfig((c) => ({ ...c, device }))}
          />
        )}
        {CHANNEL_FIELDS[type]
          .filter(() => type !== 'web_push')
          .map((f) =>
            f.input === 'checkbox' ? (
              <label key={f.key} className="flex items-center gap-2 text-slate-300">
                <input
                  type="checkbox"
                  checked={config[f.key] === true}
                  onChange={(e) => setConfig({ ...config, [f.key]: e.target.checked })}
                />
                {f.label}
                {f.help !== undefined && <span className="text-xs text-slate-500">{f.help}</span>}
              </label>
            ) : (
              <label key={f.key} className="grid gap-1">
                <span className="text-slate-300">
                  {f.label}
                  {!f.required && <span className="text-slate-500"> (optional)</span>}
                </span>
                {f.input === 'textarea' ? (
                  <textarea
                    aria-label={f.label}
                    className="min-h-16 rounded-md border border-slate-700 bg-slate-950 px-3 py-2 font-mono text-xs text-slate-100"
                    value={String(config[f.key] ?? '')}
                    placeholder={
                      keep.has(f.key) ? 'Leave blank to keep the stored value' : f.placeholder
                    }
                    onChange={(e) => setConfig({ ...config, [f.key]: e.target.value })}
                  />
                ) : (
                  <Input
                    aria-label={f.label}
                    type={
                      f.input === 'number' ? 'number' : f.input === 'password' ? 'password' : 'text'
                    }
                    autoComplete="off"
                    value={String(config[f.key] ?? '')}
                    placeholder={
                      keep.has(f.key)
                        ? `Leave blank to keep (${String(channel?.config[f.key] ?? '')})`
                        : f.placeholder
                    }
                    onChange={(e) =>
                      setConfig({
                        ...config,
                        [f.key]: f.input === 'number' ? Number(e.target.value) : e.target.value,
                      })
                    }
                  />
                )}
                {f.help !== undefined && <span className="text-xs text-slate-500">{f.help}</span>}
              </label>
            ),
          )}
        <label className="flex items-center gap-2 text-slate-300">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Enabled
        </label>
        <FormFooter
          error={error}
          onCancel={onClose}
          submit={editing ? 'Save' : 'Create'}
          pending={create.isPending || update.isPending}
        />
      </form>
    </Dialog>
  );
}
