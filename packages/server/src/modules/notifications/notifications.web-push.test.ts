import Database from 'better-sqlite3';
import { join } from 'node:path';
import type {
  ChannelTestResult,
  NotificationChannel,
  NotificationRequest,
  WebPushKey,
  WebPushPayload,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import {
  browserSubscription,
  pushService,
  vapidClaims,
  type PushRequest,
} from '../../test/push-receiver.js';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  login,
  signedInCookie,
  type TestApp,
} from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// "This device" (Web Push): a loopback push service stands in for the browser's, and the
// test decrypts what Berth sent with the subscription's own keys. The outbox's faults as for
// the other channels: a 500 then 201, a restart mid-send, and a 410 that drops the subscription.

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let push: Awaited<ReturnType<typeof pushService>>;
let key: string;

beforeAll(async () => {
  push = await pushService();
  t = await buildTestApp({ BERTH_NOTIFICATION_RETRY_BASE_MS: '60' });
  api = apiClient(t.app, await signedInCookie(t.app));
  key = (await api.get<WebPushKey>('/notifications/web-push/key')).body.public_key;
});
afterAll(async () => {
  await t.close();
  await push.close();
});

/** A subscribed device and its channel. */
async function device(name: string) {
  const sub = browserSubscription(`${push.origin}/push/${name}`);
  const res = await api.post<NotificationChannel>('/notifications/channels', {
    name,
    type: 'web_push',
    config: {
      endpoint: sub.endpoint,
      p256dh: sub.p256dh,
      auth: sub.auth,
      device: 'Chrome on Linux',
    },
  });
  expect(res.status).toBe(200);
  return { sub, channel: res.body, path: `/push/${name}` };
}

const open = (sub: ReturnType<typeof browserSubscription>, r: PushRequest | undefined) =>
  JSON.parse(sub.decrypt(r?.body ?? Buffer.alloc(0))) as WebPushPayload;

function request(alertId: string, channels: number[]): NotificationRequest {
  const at = new Date().toISOString();
  return {
    event: 'raised',
    template: 'state_change',
    at,
    context: { old_state: 'running', new_state: 'exited', exit_code: 137 },
    rule: {
      id: 'r1',
      name: 'Stopped',
      kind: 'container_stopped',
      severity: 'critical',
      custom_template: null,
      notify_channels_json: channels,
    },
    alert: {
      id: alertId,
      title: 'Stopped - web on h1',
      message: 'Container web died (exit code 137)',
      kind: 'container_stopped',
      state: 'open',
      severity: 'critical',
      scope_type: 'container',
      scope_id: 'h1:web',
      host_id: 'h1',
      host_name: 'h1',
      container_name: 'web',
      rule_id: 'r1',
      first_seen: at,
      last_seen: at,
      current_value: null,
      threshold: null,
      snoozed_until: null,
      resolved_at: null,
      resolved_reason: null,
      occurrences: 1,
      rule_name: 'Stopped',
    },
  };
}

describe('the VAPID keys', () => {
  // The same pair after a restart: the restart test below.
  it('are made once, the private one sealed', () => {
    expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(Buffer.from(key, 'base64url')[0]).toBe(4);
    const raw = new Database(join(t.config.dataDir, 'berth.db'), { readonly: true });
    const row = raw.prepare(`select value from settings where key = 'web_push_vapid'`).get() as {
      value: string;
    };
    raw.close();
    const stored = JSON.parse(row.value) as Record<string, string>;
    expect(stored.public_key).toBe(key);
    expect(stored.private_key_sealed).toMatch(/^v1:/);
    expect(Object.keys(stored).sort()).toEqual(['created_at', 'private_key_sealed', 'public_key']);
  });
});

describe('a "This device" channel', () => {
  it('keeps the subscription sealed and answers it masked', async () => {
    const { channel } = await device('wp-masked');
    expect(channel.config.endpoint).toMatch(/^••••••/);
    expect(channel.config.p256dh).toMatch(/^••••••/);
    expect(channel.config.auth).toMatch(/^••••••/);
    expect(channel.config.device).toBe('Chrome on Linux');
    const raw = new Database(join(t.config.dataDir, 'berth.db'), { readonly: true });
    const row = raw
      .prepare(`select config_json, secrets_sealed from notification_channels where id = ?`)
      .get(channel.id) as { config_json: string; secrets_sealed: string };
    raw.close();
    expect(row.config_json).not.toContain('127.0.0.1');
    expect(row.secrets_sealed).toMatch(/^v1:/);
  });

  it('refuses a subscription that is not one, naming the field', async () => {
    const sub = browserSubscription(`${push.origin}/push/bad`);
    const bad = async (config: object, words: string) => {
      const res = await api.post<{ detail: string }>('/notifications/channels', {
        name: 'wp-bad',
        type: 'web_push',
        config,
      });
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(words);
    };
    await bad({ p256dh: sub.p256dh, auth: sub.auth }, 'Push endpoint is required');
    await bad(
      { endpoint: 'ftp://x/y', p256dh: sub.p256dh, auth: sub.auth },
      'push endpoint must be an http(s) address',
    );
    await bad(
      { endpoint: sub.endpoint, p256dh: 'abc', auth: sub.auth },
      "The subscription key is not a browser's push key",
    );
    await bad(
      { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: 'x'.repeat(30) },
      "The subscription secret is not a browser's push secret",
    );
  });

  it('takes one channel per device', async () => {
    const { sub } = await device('wp-once');
    const again = await api.post<{ detail: string }>('/notifications/channels', {
      name: 'wp-twice',
      type: 'web_push',
      config: { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth },
    });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain("This device already has a channel: 'wp-once'");
  });

  it('a test send reaches the push service encrypted for the device, signed with the key', async () => {
    const { sub, channel, path } = await device('wp-test');
    const res = await api.post<ChannelTestResult>(`/notifications/channels/${channel.id}/test`, {});
    expect(res.body).toEqual({ success: true, error: null });
    const got = push.to(path);
    expect(got).toHaveLength(1);
    expect(got[0]?.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(got[0]?.headers.ttl)).toBeGreaterThan(0);
    const claims = vapidClaims(got[0]?.headers.authorization, key, push.origin);
    expect(claims.sub).toMatch(/^mailto:/);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    const payload = open(sub, got[0]);
    expect(payload.title).toBe('Berth test notification');
    expect(payload.body).toContain('the channel wp-test is configured correctly');
    expect(payload.body).not.toContain('**');
    expect(payload.url).toBe('/settings/notifications');
  });

  it('an alert arrives once with its title, body and the link to its side panel', async () => {
    const { sub, channel, path } = await device('wp-alert');
    const req = request('alert-wp-1', [channel.id]);
    await t.app.services.notifications.notify(req);
    await t.app.services.notifications.notify(req);
    await waitFor('delivered', () => push.to(path).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(push.to(path)).toHaveLength(1);
    const payload = open(sub, push.to(path)[0]);
    expect(payload.title).toBe('CRITICAL: Container stopped - web on h1');
    expect(payload.body).toContain('Exit code: 137');
    expect(payload.url).toBe('/alerts?alertId=alert-wp-1');
    expect(payload.tag).toBe('alert-wp-1');
    expect(push.to(path)[0]?.headers.urgency).toBe('high');
  });

  it('a push service answering 500 then 201 gets the alert once more, and it is delivered once', async () => {
    const { sub, channel, path } = await device('wp-retry');
    push.answer(500);
    await t.app.services.notifications.notify(request('alert-wp-retry', [channel.id]));
    await waitFor('two tries', () => push.to(path).length === 2, 5000);
    await new Promise((r) => setTimeout(r, 500));
    expect(push.to(path)).toHaveLength(2);
    // Encrypted afresh each try (a new salt and key), the same notification inside.
    expect(open(sub, push.to(path)[1])).toEqual(open(sub, push.to(path)[0]));
    const counts = await t.app.services.notifications.outboxCounts();
    expect(counts.pending ?? 0).toBe(0);
    const listed = (await api.get<NotificationChannel[]>('/notifications/channels')).body;
    expect(listed.find((c) => c.id === channel.id)?.last_error).toBeNull();
  });

  it('a 410 drops the subscription, says so, and nothing is retried', async () => {
    const { channel, path } = await device('wp-gone');
    push.answer(410);
    await t.app.services.notifications.notify(request('alert-wp-gone', [channel.id]));
    const after = await waitFor('marked gone', async () =>
      (await api.get<NotificationChannel[]>('/notifications/channels')).body.find(
        (c) => c.id === channel.id && c.last_error !== null,
      ),
    );
    expect(after.last_error).toContain('expired or was revoked');
    expect(after.config.endpoint).toBeUndefined();
    expect(after.config.device).toBe('Chrome on Linux');
    // The next alert fails at once without a request; so does a test send.
    await t.app.services.notifications.notify(request('alert-wp-gone-2', [channel.id]));
    await new Promise((r) => setTimeout(r, 500));
    expect(push.to(path)).toHaveLength(1);
    const tested = await api.post<ChannelTestResult>(
      `/notifications/channels/${channel.id}/test`,
      {},
    );
    expect(tested.body.success).toBe(false);
    expect(tested.body.error).toContain('no push subscription');
    expect(push.to(path)).toHaveLength(1);
    const events = await api.get<{ events: { event_type: string; title: string }[] }>(
      '/events?category=notification&hours=1',
    );
    expect(
      events.body.events.filter((e) => e.event_type === 'failed' && e.title.includes('wp-gone')),
    ).toHaveLength(2);

    // Subscribing again (an edit with a new subscription) brings the device back.
    const again = browserSubscription(`${push.origin}/push/wp-gone-2`);
    const edited = await api.put<NotificationChannel>(`/notifications/channels/${channel.id}`, {
      config: { endpoint: again.endpoint, p256dh: again.p256dh, auth: again.auth },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.last_error).toBeNull();
    const ok = await api.post<ChannelTestResult>(`/notifications/channels/${channel.id}/test`, {});
    expect(ok.body.success).toBe(true);
    expect(open(again, push.to('/push/wp-gone-2')[0]).title).toBe('Berth test notification');
  });

  it('a test send answered 404 drops the subscription too', async () => {
    const { channel } = await device('wp-404');
    push.answer(404);
    const res = await api.post<ChannelTestResult>(`/notifications/channels/${channel.id}/test`, {});
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain('expired or was revoked');
    const listed = (await api.get<NotificationChannel[]>('/notifications/channels')).body;
    expect(listed.find((c) => c.id === channel.id)?.config.endpoint).toBeUndefined();
  });

  it('a blackout holds the alert; its end sends one summary that opens the alerts page', async () => {
    const { sub, channel, path } = await device('wp-blackout');
    // The summary names what is still open, as the alerts table has it.
    const now = new Date().toISOString();
    await t.app.services.db
      .insertInto('alerts')
      .values({
        id: 'alert-wp-black',
        title: 'Stopped - web on h1',
        message: null,
        kind: 'container_stopped',
        state: 'open',
        severity: 'critical',
        scope_type: 'container',
        scope_id: 'h1:web',
        host_id: 'h1',
        host_name: 'h1',
        container_name: 'web',
        rule_id: null,
        first_seen: now,
        last_seen: now,
        current_value: null,
        threshold: null,
        snoozed_until: null,
        resolved_at: null,
        resolved_reason: null,
        dedup_key: null,
        rule_name: 'Stopped',
        notified_at: null,
      })
      .execute();
    const always = {
      name: 'Maintenance',
      enabled: true,
      start_time: '00:00',
      end_time: '00:00',
      days: [0, 1, 2, 3, 4, 5, 6],
    };
    expect((await api.put('/settings', { blackout_windows: [always] })).status).toBe(200);
    await waitFor('blackout', () => t.app.services.notifications.blackoutActive());
    await t.app.services.notifications.notify(request('alert-wp-black', [channel.id]));
    await new Promise((r) => setTimeout(r, 500));
    expect(push.to(path)).toHaveLength(0);
    expect((await api.put('/settings', { blackout_windows: [] })).status).toBe(200);
    await waitFor('summary', () => push.to(path).length === 1, 5000);
    await new Promise((r) => setTimeout(r, 300));
    expect(push.to(path)).toHaveLength(1);
    const payload = open(sub, push.to(path)[0]);
    expect(payload.title).toBe('Blackout ended: 1 alert(s) still open');
    expect(payload.body).toContain('CRITICAL Container stopped - web on h1');
    expect(payload.url).toBe('/alerts');
  });

  it('a push service refusing the key (403) fails at once in plain words, the subscription kept', async () => {
    const { channel, path } = await device('wp-403');
    push.answer(403);
    const res = await api.post<ChannelTestResult>(`/notifications/channels/${channel.id}/test`, {});
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain("The push service refused Berth's key (HTTP 403)");
    expect(push.to(path)).toHaveLength(1);
    const listed = (await api.get<NotificationChannel[]>('/notifications/channels')).body;
    expect(listed.find((c) => c.id === channel.id)?.config.endpoint).toMatch(/^••••••/);
  });

  it('a restart mid-send delivers the alert after it, once', async () => {
    const { sub, channel, path } = await device('wp-restart');
    push.answer(...Array<number>(50).fill(503));
    await t.app.services.notifications.notify(request('alert-wp-restart', [channel.id]));
    await waitFor('first try', () => push.to(path).length >= 1);
    await t.app.close();
    const raw = new Database(join(t.config.dataDir, 'berth.db'));
    raw
      .prepare(
        `update notification_outbox set status = 'sending' where dedup_key like 'alert-wp-restart|%'`,
      )
      .run();
    raw.close();
    push.reset();
    const app = await t.restart();
    api = apiClient(app, await login(app, CHANGED_PASSWORD));
    await waitFor('delivered after the restart', () => push.to(path).length >= 2);
    await new Promise((r) => setTimeout(r, 500));
    expect(push.to(path)).toHaveLength(2);
    expect(open(sub, push.to(path)[1]).url).toBe('/alerts?alertId=alert-wp-restart');
    const counts = await app.services.notifications.outboxCounts();
    expect(counts.sending ?? 0).toBe(0);
    expect(counts.pending ?? 0).toBe(0);
    // The same key pair after the restart.
    expect((await api.get<WebPushKey>('/notifications/web-push/key')).body.public_key).toBe(key);
  });
});
