import { randomBytes } from 'node:crypto';
import type { Alert, AlertListResponse, AlertRule, Host } from '@berth/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, rigEngine, runBusybox } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

const engine = rigEngine('plain');
const tag = randomBytes(3).toString('hex');
const busy = `berth-lookback-${tag}`;
/** The rule's window. Short so the test runs in about two minutes; 30 minutes works alike. */
const WINDOW_S = 60;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp | undefined;
afterAll(async () => {
  await t?.close();
  dockerCli(engine, ['rm', '-f', busy]);
});

// A real restart of Berth on the same database, with real history: a container burns CPU from
// the start, Berth records it into metrics history for about half a window, then closes and
// starts again on the same data directory. The look-back rule fires as soon as history covers
// its window, well before a whole window has passed since the restart; the same rule on
// samples (the control) forgot what it saw and has to wait a whole window again.
describe('look-back rules survive a restart of Berth', { timeout: 180_000 }, () => {
  it('fires from history after a restart without waiting a whole window again', async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = await signedInCookie(t.app);
    let api = apiClient(t.app, cookie);
    // A watching browser keeps the monitor on its 2 s cadence (rules ask for stats anyway).
    let live = await openLiveClient(t.app, cookie);
    const host = (await api.post<Host>('/hosts', { name: `lb-${tag}`, url: engine.url })).body;
    await waitFor(
      'host online',
      async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
    );
    runBusybox(engine, busy, { command: 'while :; do :; done' });
    const started = Date.now();
    const rule = async (name: string, look_back: boolean) => {
      const res = await api.post<AlertRule>('/alerts/rules', {
        name,
        scope: 'container',
        kind: 'cpu_high',
        severity: 'warning',
        threshold: 5,
        operator: '>=',
        duration_seconds: WINDOW_S,
        occurrences: 1,
        look_back,
        container_selector_json: { include: [busy] },
      });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      return res.body;
    };
    const lookBack = await rule(`look-back-${tag}`, true);
    const control = await rule(`samples-${tag}`, false);
    const alertsOf = async (ruleId: string): Promise<Alert[]> =>
      (await api.get<AlertListResponse>(`/alerts/?rule_id=${ruleId}&page_size=10`)).body.alerts;

    // Half a window of history, then a restart: nothing may have fired yet.
    await sleep(WINDOW_S * 500 - (Date.now() - started));
    expect(await alertsOf(lookBack.id)).toEqual([]);
    expect(await alertsOf(control.id)).toEqual([]);
    live.close();
    await t.restart();
    const restarted = Date.now();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    api = apiClient(t.app, cookie);
    live = await openLiveClient(t.app, cookie);

    const [raised] = await waitFor(
      'the look-back alert after the restart',
      async () => {
        const alerts = await alertsOf(lookBack.id);
        return alerts.length > 0 ? alerts : undefined;
      },
      WINDOW_S * 1000,
      500,
    );
    const firedAfter = Date.now() - restarted;
    expect(raised).toMatchObject({ kind: 'cpu_high', container_name: busy, state: 'open' });
    expect(raised?.message).toMatch(/^CPU averaged .* over the last 1 min \(threshold >= 5\.0%\)$/);
    // Fired once history covered the window since the container started, not a whole window
    // after the restart; the control, on samples since the restart, has not fired yet.
    expect(firedAfter).toBeLessThan(WINDOW_S * 1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual((WINDOW_S - 20) * 1000);
    expect(await alertsOf(control.id)).toEqual([]);
    live.close();
  });
});
