import type { AlertRule, AlertRuleList } from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let cookie: string;
beforeEach(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
});
afterEach(async () => {
  await t.close();
});

const detail = (res: { body: unknown }) => (res.body as { detail: string }).detail;
const cpu = (over: object = {}) => ({
  name: 'CPU for half an hour',
  scope: 'host',
  kind: 'cpu_high',
  severity: 'warning',
  duration_seconds: 1800,
  ...over,
});

describe('look-back alert rules', () => {
  it('keeps the answer of a rule that does not ask for it; stores and answers look_back', async () => {
    const plain = await api.post<AlertRule>('/alerts/rules', cpu());
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('look_back');
    const off = await api.post<AlertRule>('/alerts/rules', cpu({ look_back: false }));
    expect(off.body).not.toHaveProperty('look_back');

    const made = await api.post<AlertRule>('/alerts/rules', cpu({ look_back: true }));
    expect(made.status).toBe(200);
    expect(made.body.look_back).toBe(true);
    // Read back from the database after a restart, still a look-back rule.
    await t.restart();
    api = apiClient(t.app, cookie);
    const list = (await api.get<AlertRuleList>('/alerts/rules')).body;
    expect(list.rules.find((r) => r.id === made.body.id)?.look_back).toBe(true);
    expect(list.rules.find((r) => r.id === plain.body.id)).not.toHaveProperty('look_back');

    const turnedOff = await api.put<AlertRule>(`/alerts/rules/${made.body.id}`, {
      look_back: false,
    });
    expect(turnedOff.status).toBe(200);
    expect(turnedOff.body).not.toHaveProperty('look_back');
  });

  it('refuses look-back where history cannot answer, naming the field (in words)', async () => {
    const stopped = await api.post('/alerts/rules', {
      name: 'stopped',
      scope: 'container',
      kind: 'container_stopped',
      severity: 'error',
      look_back: true,
    });
    expect(stopped.status).toBe(400);
    // Named in words as the form names it, like every rule field.
    expect(detail(stopped)).toBe(
      'Look back needs a kind with metrics history (cpu_high, memory_high or disk_low), not container_stopped',
    );

    const short = await api.post('/alerts/rules', cpu({ look_back: true, duration_seconds: 20 }));
    expect(short.status).toBe(400);
    expect(detail(short)).toMatch(/^Duration must be at least 30 for a look-back rule/);

    const long = await api.post('/alerts/rules', cpu({ look_back: true, duration_seconds: 86401 }));
    expect(long.status).toBe(400);
    expect(detail(long)).toMatch(/^Duration must be at most 86400 for a look-back rule/);

    const notBool = await api.post('/alerts/rules', cpu({ look_back: 'yes' }));
    expect(notBool.status).toBe(400);
    expect(detail(notBool)).toBe('Look back must be true or false');

    // A look-back rule whose kind changes to one without history is refused the same way.
    const made = await api.post<AlertRule>('/alerts/rules', {
      ...cpu({ look_back: true }),
      scope: 'container',
    });
    const changed = await api.put(`/alerts/rules/${made.body.id}`, { kind: 'container_restart' });
    expect(changed.status).toBe(400);
    expect(detail(changed)).toMatch(/^Look back needs a kind with metrics history/);
  });

  it('keeps look-back windows and the 10-second history retention in step, each side refusing', async () => {
    expect((await api.put('/settings', { history_10s_retention_hours: 2 })).status).toBe(200);
    // A window longer than the 10 s points are kept would never be covered: never raised.
    const long = await api.post('/alerts/rules', cpu({ look_back: true, duration_seconds: 7201 }));
    expect(long.status).toBe(400);
    expect(detail(long)).toBe(
      'Duration must be at most 7200 for a look-back rule (the 10-second history is kept 2 hours: Settings → System)',
    );
    // ...or, for the clear window, never cleared.
    const clear = await api.post(
      '/alerts/rules',
      cpu({ look_back: true, duration_seconds: 600, clear_duration_seconds: 10_800 }),
    );
    expect(clear.status).toBe(400);
    expect(detail(clear)).toMatch(/^Clear duration must be at most 7200 for a look-back rule/);
    // A rule that does not look back is not bound by history at all.
    const live = await api.post('/alerts/rules', cpu({ duration_seconds: 10_800 }));
    expect(live.status).toBe(200);

    const made = await api.post<AlertRule>(
      '/alerts/rules',
      cpu({ name: 'CPU for two hours', look_back: true, duration_seconds: 7200 }),
    );
    expect(made.status).toBe(200);
    // The other way: the retention may not drop under an enabled look-back rule's window.
    const lower = await api.put('/settings', { history_10s_retention_hours: 1 });
    expect(lower.status).toBe(400);
    expect(detail(lower)).toBe(
      '10-second history must be at least 2 hours: look-back rule "CPU for two hours" reads 7200 seconds of it',
    );
    // Once the rule is off, nothing stands in the way.
    await api.patch(`/alerts/rules/${made.body.id}/toggle`, { enabled: false });
    expect((await api.put('/settings', { history_10s_retention_hours: 1 })).status).toBe(200);
    // ...and it cannot be turned back on while history keeps less than its window.
    const on = await api.patch(`/alerts/rules/${made.body.id}/toggle`, { enabled: true });
    expect(on.status).toBe(400);
    expect(detail(on)).toMatch(/^Duration must be at most 3600 for a look-back rule/);
  });
});
