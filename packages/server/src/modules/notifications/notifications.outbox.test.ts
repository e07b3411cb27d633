import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { NotificationChannel, NotificationRequest } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { httpReceiver, type HttpReceiver } from '../../test/notification-receivers.js';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  login,
  signedInCookie,
  type TestApp,
} from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// The outbox: alerts queued once per transition and channel, retried, failed, and delivered
// across a restart. The channels themselves: notifications.channels.test.ts.

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let rx: HttpReceiver;

beforeAll(async () => {
  rx = await httpReceiver();
  t = await buildTestApp({ BERTH_NOTIFICATION_RETRY_BASE_MS: '60' });
  api = apiClient(t.app, await signedInCookie(t.app));
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

const create = (body: object) => api.post<NotificationChannel>('/notifications/channels', body);

function request(
  alertId: string,
  channels: number[],
  event: 'raised' | 'resolved' = 'raised',
): NotificationRequest {
  const at = new Date().toISOString();
  return {
    event,
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
      state: event === 'raised' ? 'open' : 'resolved',
      severity: 'critical',
      scope_type: 'container',
      scope_id: 'h1:web',
      host_id: 'h1',
      host_name: 'h1',
      container_name: 'web',
      rule_id: 'r1',
      first_seen: new Date(Date.now() - 125_000).toISOString(),
      last_seen: at,
      current_value: null,
      threshold: null,
      snoozed_until: null,
      resolved_at: event === 'resolved' ? at : null,
      resolved_reason: event === 'resolved' ? 'Container running again' : null,
      occurrences: 1,
      rule_name: 'Stopped',
    },
  };
}

describe('the outbox', () => {
  it('queues each transition once per channel and delivers it once', async () => {
    const ch = (
      await create({ name: 'ob-1', type: 'discord', config: { webhook_url: `${rx.url}/ob1` } })
    ).body;
    const before = rx.requests.length;
    const req = request('alert-ob-1', [ch.id]);
    await t.app.services.notifications.notify(req);
    await t.app.services.notifications.notify(req);
    await waitFor('delivered', () => rx.requests.some((r) => r.url === '/ob1'));
    await new Promise((r) => setTimeout(r, 300));
    const got = rx.requests.slice(before).filter((r) => r.url === '/ob1');
    expect(got).toHaveLength(1);
    const embed = (
      JSON.parse(got[0]?.body ?? '{}') as {
        embeds: { title: string; description: string; color: number }[];
      }
    ).embeds[0];
    expect(embed?.title).toBe('CRITICAL: Container stopped - web on h1');
    expect(embed?.description).toContain('**Exit code:** 137 (SIGKILL: killed, or out of memory)');
    expect(embed?.color).toBe(0xdc2626);

    await t.app.services.notifications.notify(request('alert-ob-1', [ch.id], 'resolved'));
    await waitFor('recovery', () => rx.requests.filter((r) => r.url === '/ob1').length === 2);
    const rec = (
      JSON.parse(rx.requests.filter((r) => r.url === '/ob1')[1]?.body ?? '{}') as {
        embeds: { description: string }[];
      }
    ).embeds[0];
    expect(rec?.description).toContain('✅ **Resolved: Container stopped**');
    expect(rec?.description).toMatch(/\*\*Lasted:\*\* 2m \d+s/);
  });

  it('never sends what a user’s own check found; the schedule’s finding is sent', async () => {
    const ch = (
      await create({ name: 'ob-man', type: 'discord', config: { webhook_url: `${rx.url}/man` } })
    ).body;
    const found = (id: string, trigger: string): NotificationRequest => {
      const base = request(id, [ch.id]);
      return { ...base, template: 'update', context: { trigger } };
    };
    await t.app.services.notifications.notify(found('alert-manual', 'manual'));
    await t.app.services.notifications.notify(found('alert-scheduled', 'scheduled'));
    await waitFor('scheduled finding delivered', () => rx.requests.some((r) => r.url === '/man'));
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.requests.filter((r) => r.url === '/man')).toHaveLength(1);
  });

  it('a receiver answering 500 three times then 200 gets the message once, on the fourth try', async () => {
    const ch = (
      await create({ name: 'ob-retry', type: 'slack', config: { webhook_url: `${rx.url}/retry` } })
    ).body;
    rx.answer(500, 500, 500);
    await t.app.services.notifications.notify(request('alert-retry', [ch.id]));
    await waitFor(
      'four tries',
      () => rx.requests.filter((r) => r.url === '/retry').length === 4,
      5000,
    );
    await new Promise((r) => setTimeout(r, 800));
    expect(rx.requests.filter((r) => r.url === '/retry')).toHaveLength(4);
    const bodies = new Set(rx.requests.filter((r) => r.url === '/retry').map((r) => r.body));
    expect(bodies.size).toBe(1);
    const events = await api.get<{ events: { category: string; event_type: string }[] }>(
      '/events?category=notification&hours=1',
    );
    expect(events.body.events.some((e) => e.event_type === 'retrying')).toBe(true);
    const channel = (await api.get<NotificationChannel[]>('/notifications/channels')).body.find(
      (c) => c.id === ch.id,
    );
    expect(channel?.last_error).toBeNull();
  });

  it('a 4xx refusal fails at once, with an event of category notification', async () => {
    const ch = (
      await create({
        name: 'ob-refused',
        type: 'slack',
        config: { webhook_url: `${rx.url}/refused` },
      })
    ).body;
    rx.answer(404);
    await t.app.services.notifications.notify(request('alert-refused', [ch.id]));
    await waitFor('failed event', async () =>
      (
        await api.get<{ events: { event_type: string; title: string }[] }>(
          '/events?category=notification&hours=1',
        )
      ).body.events.some((e) => e.event_type === 'failed' && e.title.includes('ob-refused')),
    );
    expect(rx.requests.filter((r) => r.url === '/refused')).toHaveLength(1);
  });

  it('a restart delivers what was queued or in flight, once', async () => {
    const ch = (
      await create({
        name: 'ob-restart',
        type: 'discord',
        config: { webhook_url: `${rx.url}/restart` },
      })
    ).body;
    rx.answer(...Array<number>(50).fill(503));
    await t.app.services.notifications.notify(request('alert-restart', [ch.id]));
    await waitFor('first try', () => rx.requests.some((r) => r.url === '/restart'));
    await t.app.close();
    // A crash while sending: the row was claimed and never marked.
    const raw = new Database(join(t.config.dataDir, 'berth.db'));
    raw
      .prepare(
        `update notification_outbox set status = 'sending' where dedup_key like 'alert-restart|%'`,
      )
      .run();
    raw.close();
    rx.reset();
    const app = await t.restart();
    api = apiClient(app, await login(app, CHANGED_PASSWORD));
    await waitFor(
      'delivered after the restart',
      async () =>
        (await app.services.notifications.outboxCounts()).delivered !== undefined &&
        rx.requests.filter((r) => r.url === '/restart').length >= 2,
    );
    await new Promise((r) => setTimeout(r, 500));
    // One refused try before the stop, one answered try after it.
    expect(rx.requests.filter((r) => r.url === '/restart')).toHaveLength(2);
    const counts = await app.services.notifications.outboxCounts();
    expect(counts.sending ?? 0).toBe(0);
    expect(counts.pending ?? 0).toBe(0);
  });
});
