import type { ChannelConfig, NotificationChannel } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { BellRing, Zap } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { errorText } from '@/lib/api-client';
import { useChannelMutations, webPushKeyQueryOptions } from '../api/notifications-api';
import {
  currentEndpoint,
  deviceName,
  notificationPermission,
  PERMISSION_DENIED,
  PushProblem,
  pushUnsupported,
  subscribeThisDevice,
} from '../lib/web-push';

/** The text shown when the push service said the stored subscription is gone. */
export const SUBSCRIPTION_GONE =
  "This device's subscription was removed: its push service said it had expired or been revoked (the browser's data was cleared, notifications were turned off, or the app was removed). Subscribe this device again to get alerts on it.";

/** The masked endpoint ends with the real one's last 4 characters: enough to recognise it. */
const sameDevice = (masked: unknown, endpoint: string | null) =>
  typeof masked === 'string' && endpoint !== null && masked.slice(-4) === endpoint.slice(-4);

/**
 * The "This device" part of the channel form: subscribes this browser (the subscription
 * becomes the channel's config), names the device, says plainly what went wrong, and sends
 * a test to a saved channel.
 */
export function WebPushDevice({
  channel,
  config,
  onSubscribed,
  onDevice,
}: {
  channel?: NotificationChannel;
  config: ChannelConfig;
  onSubscribed: (sub: { endpoint: string; p256dh: string; auth: string }) => void;
  onDevice: (device: string) => void;
}) {
  const key = useQuery(webPushKeyQueryOptions());
  const { test } = useChannelMutations();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [here, setHere] = useState<string | null>(null);
  const [tested, setTested] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    currentEndpoint()
      .then(setHere)
      .catch(() => setHere(null));
  }, []);

  const stored = channel?.config.endpoint;
  const fresh = typeof config.endpoint === 'string' && config.endpoint !== '';
  const gone = channel !== undefined && stored === undefined && !fresh;
  const device = typeof config.device === 'string' ? config.device : '';
  const blocked = notificationPermission() === 'denied';
  const unsupported = pushUnsupported();

  const subscribe = async () => {
    setProblem(null);
    setBusy(true);
    try {
      if (key.data === undefined)
        throw new PushProblem("Berth's push key did not load; try again.");
      const sub = await subscribeThisDevice(key.data.public_key, gone);
      onSubscribed(sub);
      setHere(sub.endpoint);
      if (device === '') onDevice(deviceName(navigator.userAgent));
    } catch (err) {
      setProblem(err instanceof PushProblem ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const sendTest = () => {
    if (channel === undefined) return;
    setTested(null);
    test.mutate(channel.id, {
      onSuccess: (r) =>
        setTested(
          r.success
            ? { ok: true, text: `Sent. It should appear on ${device || 'this device'} shortly.` }
            : { ok: false, text: r.error ?? 'The test was not sent.' },
        ),
      onError: (err) => setTested({ ok: false, text: errorText(err) }),
    });
  };

  const status = fresh
    ? `Subscribed: ${device || 'this browser'} will get the notifications once saved.`
    : gone
      ? SUBSCRIPTION_GONE
      : stored !== undefined
        ? `Subscribed: ${device || 'a device'}${sameDevice(stored, here) ? ' (this browser)' : ''}.`
        : 'Not subscribed yet: subscribe this browser to get alerts on it.';

  return (
    <div className="grid gap-3" data-testid="web-push-device">
      <p className="text-xs text-slate-400">
        Alerts come to this browser as notifications, with the same message templates as the other
        channels (Settings → Alerts). Tapping one opens the alert.
      </p>
      <p
        role="status"
        data-testid="web-push-status"
        className={
          gone
            ? 'text-amber-300'
            : fresh || stored !== undefined
              ? 'text-emerald-300'
              : 'text-slate-300'
        }
      >
        {status}
      </p>
      {unsupported !== null && <p className="text-amber-300">{unsupported}</p>}
      {unsupported === null && blocked && problem === null && (
        <p className="text-amber-300">{PERMISSION_DENIED}</p>
      )}
      {problem !== null && (
        <p role="alert" data-testid="web-push-problem" className="text-red-300">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          variant={fresh || (stored !== undefined && !gone) ? 'secondary' : 'primary'}
          size="sm"
          disabled={busy || unsupported !== null}
          onClick={() => void subscribe()}
        >
          <BellRing className="h-4 w-4" />
          {busy
            ? 'Subscribing…'
            : gone || stored !== undefined
              ? 'Subscribe this device again'
              : 'Subscribe this device'}
        </Button>
        {channel !== undefined && (
          <Button
            variant="secondary"
            size="sm"
            disabled={test.isPending || fresh || gone}
            title={fresh ? 'Save first: the test goes to the saved subscription' : undefined}
            onClick={sendTest}
          >
            <Zap className="h-4 w-4" /> {test.isPending ? 'Sending…' : 'Send a test'}
          </Button>
        )}
      </div>
      {tested !== null && (
        <p
          role={tested.ok ? 'status' : 'alert'}
          data-testid="web-push-test"
          className={tested.ok ? 'text-emerald-300' : 'text-red-300'}
        >
          {tested.text}
        </p>
      )}
      <label className="grid gap-1">
        <span className="text-slate-300">
          Device <span className="text-slate-500">(optional)</span>
        </span>
        <Input
          aria-label="Device"
          value={device}
          placeholder={deviceName(navigator.userAgent)}
          onChange={(e) => onDevice(e.target.value)}
        />
        <span className="text-xs text-slate-500">
          Which phone or computer this is, for the list.
        </span>
      </label>
    </div>
  );
}
