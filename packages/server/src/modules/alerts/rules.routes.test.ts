import type { Alert, AlertAnnotationList, AlertRule, AlertRuleList, Host } from '@berth/contracts';
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
    const cases: [object, string][] = [
      [{ name: ' ' }, 'name'],
      [{ kind: 'cpu_hgh' }, 'kind'],
      [{ kind: 'host_down' }, 'kind'],
      [{ scope: 'group' }, 'scope'],
      [{ severity: 'fatal' }, 'severity'],
      [{ kind: 'cpu_high', threshold: 100.5 }, 'threshold'],
      [{ kind: 'cpu_high', clear_threshold: -1 }, 'clear_threshold'],
      [{ kind: 'cpu_high', duration_seconds: 0 }, 'duration_seconds'],
      [{ occurrences: 101 }, 'occurrences'],
      [{ cooldown_seconds: -5 }, 'cooldown_seconds'],
      [{ clear_duration_seconds: -1 }, 'clear_duration_seconds'],
      [{ operator: '==' }, 'operator'],
      [{ host_selector_json: { include: ['no-such-host'] } }, 'host_selector_json'],
    ];
    for (const [over, field] of cases) {
      const res = await api.post('/alerts/rules', rule(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(detail(res), JSON.stringify(over)).toMatch(new RegExp(`^${field}`));
    }
    const host = (await api.post<Host>('/hosts', { name: 'edge', url: 'tcp://127.0.0.1:9' })).body;
    const ok = await api.post(
      '/alerts/rules',
      rule({ host_selector_json: { include: [host.id] } }),
    );
    expect(ok.status).toBe(200);
    expect((await api.put('/alerts/rules/nope', { name: 'x' })).status).toBe(404);
    expect(detail(await api.patch('/alerts/rules/x/toggle', { enabled: 'yes' }))).toMatch(
      /^enabled/,
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
      /^duration_minutes/,
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
      /^text/,
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
      expect(detail(res)).toMatch(/^state: /);
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
