import type {
  Alert,
  AlertAnnotationList,
  AlertRule,
  AlertRuleList,
  ChannelDependents,
  Host,
  NotificationChannel,
} from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../../test/api.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { NotificationsService } from '../notifications/index.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
beforeEach(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await t.close();
});

const detail = (res: { body: unknown }) => (res.body as { detail: string }).detail;
const rule = (over: object) => ({
  name: 'r',
  scope: 'container',
  kind: 'update_available',
  severity: 'warning',
  ...over,
});

describe('alert rules', () => {
  it('creates with the kind’s defaults, updates, toggles and deletes (alerts stay)', async () => {
    const made = await api.post<AlertRule>('/alerts/rules', {
      name: 'CPU',
      scope: 'host',
      kind: 'cpu_high',
      severity: 'critical',
    });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      metric: 'cpu_percent',
      threshold: 90,
      operator: '>=',
      duration_seconds: 300,
      occurrences: 3,
      cooldown_seconds: 300,
      clear_duration_seconds: null,
      enabled: true,
      suppress_during_updates: false,
    });
    const id = made.body.id;
    const changed = await api.put<AlertRule>(`/alerts/rules/${id}`, {
      kind: 'host_down',
      threshold: null,
    });
    expect(changed.body).toMatchObject({
      kind: 'host_down',
      duration_seconds: 0,
      occurrences: 1,
      cooldown_seconds: 15,
      clear_duration_seconds: 30,
      metric: null,
    });
    const off = await api.patch<AlertRule>(`/alerts/rules/${id}/toggle`, { enabled: false });
    expect(off.body.enabled).toBe(false);
    expect((await api.get<AlertRuleList>('/alerts/rules')).body.total).toBe(1);

    const upd = await api.post<AlertRule>('/alerts/rules', rule({}));
    await t.app.services.alerts.signal({
      kind: 'update_available',
      hostId: 'h1',
      containerName: 'web',
      active: true,
      message: 'nginx:1.27 is out',
    });
    expect((await api.delete(`/alerts/rules/${upd.body.id}`)).status).toBe(200);
    const left = await api.get<{ alerts: Alert[] }>('/alerts/?rule_id=' + upd.body.id);
    expect(left.body.alerts).toHaveLength(1);
    expect(left.body.alerts[0]).toMatchObject({
      rule_name: 'r',
      scope_id: 'h1:web',
      state: 'open',
    });
  });

  it('answers 400 naming the field for every bad input', async () => {
    // The field in words, as the form names it: never a raw path like `cooldown_seconds:`.
    const cases: [object, string][] = [
      [{ name: ' ' }, 'Name is required'],
      [{ kind: 'cpu_hgh' }, 'Unknown rule kind'],
      [{ kind: 'host_down' }, 'Kind host_down is not a container rule kind'],
      [{ scope: 'group' }, 'Scope must be host or container'],
      [{ severity: 'fatal' }, 'Severity must be critical, error, warning or info'],
      [{ kind: 'cpu_high', threshold: 100.5 }, 'Threshold must be between 0 and 100'],
      [{ kind: 'cpu_high', clear_threshold: -1 }, 'Clear threshold must be between 0 and 100'],
      [{ kind: 'cpu_high', duration_seconds: 0 }, 'Duration must be at least 1'],
      [{ occurrences: 101 }, 'Occurrences must be between 1 and 100'],
      [{ occurrences: '3' }, 'Occurrences must be a number'],
      [{ cooldown_seconds: -5 }, 'Cooldown must be at least 0'],
      [{ cooldown_seconds: 'soon' }, 'Cooldown must be a number'],
      [{ clear_duration_seconds: -1 }, 'Clear duration must be at least 0'],
      [{ operator: '==' }, 'Operator must be one of >=, <=, >, <'],
      [{ host_selector_json: { include: ['no-such-host'] } }, 'Unknown host: no-such-host'],
      [{ custom_template: 7 }, 'Custom template must be text'],
      [{ auto_resolve: 'yes' }, 'Auto-resolve must be true or false'],
      [{ nope: 1 }, 'Unknown field: nope'],
    ];
    for (const [over, message] of cases) {
      const res = await api.post('/alerts/rules', rule(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(detail(res), JSON.stringify(over)).toBe(message);
    }
    const host = (await api.post<Host>('/hosts', { name: 'edge', url: 'tcp://127.0.0.1:9' })).body;
    const ok = await api.post(
      '/alerts/rules',
      rule({ host_selector_json: { include: [host.id] } }),
    );
    expect(ok.status).toBe(200);
    expect((await api.put('/alerts/rules/nope', { name: 'x' })).status).toBe(404);
    expect(detail(await api.patch('/alerts/rules/x/toggle', { enabled: 'yes' }))).toBe(
      'Enabled must be true or false',
    );
  });
});

describe('alert lifecycle calls', () => {
  it('snoozes, reopens when the snooze expires, annotates, resolves, then refuses', async () => {
    const notify = vi.spyOn(NotificationsService.prototype, 'notify');
    await api.post('/alerts/rules', rule({ cooldown_seconds: 600 }));
    const raise = () =>
      t.app.services.alerts.signal({
        kind: 'update_available',
        hostId: 'h1',
        containerName: 'web',
        active: true,
        message: 'new image',
      });
    await raise();
    await raise();
    const [alert] = (await api.get<{ alerts: Alert[] }>('/alerts/')).body.alerts;
    if (alert === undefined) throw new Error('no alert');
    expect(alert.occurrences).toBe(2);
    expect(notify).toHaveBeenCalledTimes(1); // the repeat fell inside the cooldown

    expect(detail(await api.post(`/alerts/${alert.id}/snooze`, { duration_minutes: 0 }))).toMatch(
      /^Snooze duration must be between 1 and /,
    );
    const snoozed = await api.post<Alert>(`/alerts/${alert.id}/snooze`, { duration_minutes: 15 });
    expect(snoozed.body.state).toBe('snoozed');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 16 * 60_000 });
    await t.app.services.alerts.lifecycle.expireSnoozes();
    expect((await api.get<Alert>(`/alerts/${alert.id}`)).body).toMatchObject({
      state: 'open',
      snoozed_until: null,
    });
    vi.useRealTimers();

    expect(detail(await api.post(`/alerts/${alert.id}/annotations`, { text: '   ' }))).toMatch(
      /^Annotation text must not be blank/,
    );
    const note = await api.post(`/alerts/${alert.id}/annotations`, {
      text: ' looking ',
      user: 'mallory',
    });
    expect(note.body).toMatchObject({ user: 'admin', text: 'looking' });
    expect(
      (await api.get<AlertAnnotationList>(`/alerts/${alert.id}/annotations`)).body.annotations,
    ).toHaveLength(1);

    const resolved = await api.post<Alert>(`/alerts/${alert.id}/resolve`);
    expect(resolved.body).toMatchObject({
      state: 'resolved',
      resolved_reason: 'Manually resolved',
    });
    // The rule has auto_resolve (the default): its channels hear it is over, a user's resolve too.
    expect(notify).toHaveBeenCalledTimes(2);
    expect(notify.mock.calls[1]?.[0]).toMatchObject({ event: 'resolved' });
    for (const call of ['resolve', 'snooze', 'annotations'] as const) {
      const body =
        call === 'snooze' ? { duration_minutes: 15 } : call === 'annotations' ? { text: 'x' } : {};
      const res = await api.post(`/alerts/${alert.id}/${call}`, body);
      expect(res.status, call).toBe(400);
      expect(detail(res), call).not.toMatch(/^state/);
    }
    expect((await api.get('/alerts/nope')).status).toBe(404);
    const events = await api.get<{ events: { event_type: string }[] }>(
      '/events?category=alert&limit=50',
    );
    expect(events.body.events.map((e) => e.event_type)).toEqual(
      expect.arrayContaining([
        'alert_raised',
        'alert_snoozed',
        'alert_unsnoozed',
        'alert_resolved',
      ]),
    );
  });
});

// What a rule body may look like: the reference API's clients send the selectors and the
// channel list as JSON text and channel ids as numbers; Berth's UI sends them as values.
const channel = async (name: string) =>
  (
    await api.post<NotificationChannel>('/notifications/channels', {
      name,
      type: 'discord',
      config: { webhook_url: 'https://discord.example.com/api/webhooks/1' },
    })
  ).body;
const host = async () =>
  (await api.post<Host>('/hosts', { name: 'edge', url: 'tcp://127.0.0.1:9' })).body;

describe('rule bodies in both spellings', () => {
  it('takes selectors and channel lists as values or JSON text, mixed, and answers values', async () => {
    const [a, b] = [await channel('a'), await channel('b')];
    const edge = await host();
    const made = await api.post<AlertRule>(
      '/alerts/rules',
      rule({
        scope: 'host',
        kind: 'host_down',
        host_selector_json: JSON.stringify({ include: [edge.id] }),
        notify_channels_json: `[${a.id}, "${b.id}"]`,
      }),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({
      host_selector_json: { include_all: false, include: [edge.id], tags: [] },
      container_selector_json: null,
      notify_channels_json: [a.id, b.id],
    });
    // A rule names a channel as the channel itself does: by the same number.
    expect(typeof made.body.notify_channels_json[0]).toBe('number');

    const changed = await api.put<AlertRule>(`/alerts/rules/${made.body.id}`, {
      scope: 'container',
      kind: 'container_stopped',
      host_selector_json: 'null',
      container_selector_json: { include_all: true },
      notify_channels_json: [String(b.id)],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      host_selector_json: null,
      container_selector_json: { include_all: true },
      notify_channels_json: [b.id],
    });
    const stored = await api.get<AlertRule>(`/alerts/rules/${made.body.id}`);
    expect(stored.body.notify_channels_json).toEqual([b.id]);
  });

  it('reads the channel ids a rule stored as digits, before ids were numbers, as numbers', async () => {
    const made = await api.post<AlertRule>('/alerts/rules', rule({}));
    await t.app.services.db
      .updateTable('alert_rules')
      .set({ notify_channels_json: '["3", "discord", 4]' })
      .where('id', '=', made.body.id)
      .execute();
    await t.app.services.alerts.rules.load();
    const read = await api.get<AlertRule>(`/alerts/rules/${made.body.id}`);
    expect(read.body.notify_channels_json).toEqual([3, 4]);
  });

  it('answers 400 naming the field for text that is not JSON or JSON of the wrong shape', async () => {
    const cases: [object, string][] = [
      [{ host_selector_json: '{include_all: true' }, 'Hosts must be a selector object'],
      [{ container_selector_json: 'web' }, 'Containers must be a selector object'],
      [{ notify_channels_json: '1, 2' }, 'Notification channels must be a list of channel ids'],
      [{ container_selector_json: '["web"]' }, 'Containers must be an object'],
      [{ container_selector_json: '{"include": "web"}' }, 'Containers: Include must be a list'],
      [{ container_selector_json: '{"names": []}' }, 'Containers: Unknown field: names'],
      [{ notify_channels_json: '{"id": 1}' }, 'Notification channels must be a list'],
      [{ notify_channels_json: '["discord"]' }, 'Notification channels must be channel ids'],
      [{ notify_channels_json: [0] }, 'Notification channels must be channel ids'],
    ];
    for (const [over, message] of cases) {
      const res = await api.post('/alerts/rules', rule(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(detail(res), JSON.stringify(over)).toContain(message);
    }
  });
});

describe('a clear threshold on the wrong side', () => {
  it('is refused for above and below rules, on create and on an edit of either threshold', async () => {
    const cpu = (over: object) =>
      api.post<AlertRule>('/alerts/rules', rule({ scope: 'host', kind: 'cpu_high', ...over }));
    const above = await cpu({ threshold: 80, clear_threshold: 85 });
    expect(above.status).toBe(400);
    expect(detail(above)).toBe(
      'Clear threshold must be at or below the threshold (80) for a >= rule',
    );
    const below = await cpu({ operator: '<', threshold: 10, clear_threshold: 5 });
    expect(detail(below)).toBe(
      'Clear threshold must be at or above the threshold (10) for a < rule',
    );

    const ok = await cpu({ threshold: 80, clear_threshold: 70 });
    expect(ok.status).toBe(200);
    const lowered = await api.put(`/alerts/rules/${ok.body.id}`, { threshold: 60 });
    expect(lowered.status).toBe(400);
    expect(detail(lowered)).toMatch(/^Clear threshold must be at or below the threshold \(60\)/);
    const flipped = await api.put(`/alerts/rules/${ok.body.id}`, { operator: '<=' });
    expect(detail(flipped)).toMatch(/^Clear threshold must be at or above/);
    expect((await api.put(`/alerts/rules/${ok.body.id}`, { clear_threshold: 80 })).status).toBe(
      200,
    );
  });
});

describe('deleting a channel', () => {
  it('takes it out of every rule that notified it; its dependents then are none', async () => {
    const [keep, gone] = [await channel('keep'), await channel('gone')];
    const both = await api.post<AlertRule>(
      '/alerts/rules',
      rule({ name: 'both', notify_channels_json: [keep.id, gone.id] }),
    );
    const only = await api.post<AlertRule>(
      '/alerts/rules',
      rule({ name: 'only', notify_channels_json: `["${gone.id}"]` }),
    );
    const deps = await api.get<ChannelDependents>(
      `/notifications/channels/${gone.id}/dependent-alerts`,
    );
    expect(deps.body).toEqual({ alert_count: 2, alert_names: ['both', 'only'] });

    expect((await api.delete(`/notifications/channels/${gone.id}`)).status).toBe(200);
    const rules = (id: string) => api.get<AlertRule>(`/alerts/rules/${id}`);
    expect((await rules(both.body.id)).body.notify_channels_json).toEqual([keep.id]);
    expect((await rules(only.body.id)).body.notify_channels_json).toEqual([]);
    // The settings page asks again right after the delete: no rule uses it, no error.
    const after = await api.get<ChannelDependents>(
      `/notifications/channels/${gone.id}/dependent-alerts`,
    );
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ alert_count: 0, alert_names: [] });
    expect((await api.delete(`/notifications/channels/${gone.id}`)).status).toBe(404);

    // The change is stored, not only remembered: a restart reads the same rules.
    const stored = await t.app.services.alerts.rules.load();
    expect(stored.find((r) => r.name === 'both')?.notify_channels_json).toEqual([keep.id]);
  });
});
