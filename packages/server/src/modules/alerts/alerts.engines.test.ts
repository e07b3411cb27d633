import { randomBytes } from 'node:crypto';
import { containerScopeId } from '@berth/contracts';
import type { Alert, AlertListResponse, AlertRule, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../../test/api.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, readRig, rigControl, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';
import { NotificationsService } from '../notifications/index.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let live: Awaited<ReturnType<typeof openLiveClient>>;
let host: Host;
const engine = rigEngine('plain');
const made: string[] = [];
const tag = randomBytes(3).toString('hex');
const notify = vi.spyOn(NotificationsService.prototype, 'notify');

function run(args: string[], name = `berth-al-${randomBytes(4).toString('hex')}`): string {
  dockerCli(engine, ['run', '-d', '--name', name, ...args]);
  made.push(name);
  return name;
}
const busybox = (cmd: string) => [readRig().images.busybox, 'sh', '-c', cmd];
const idle = busybox("trap 'exit 0' TERM; while :; do sleep 1; done");

async function addRule(body: object): Promise<AlertRule> {
  const res = await api.post<AlertRule>('/alerts/rules', { severity: 'error', ...body });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}
const alertsOf = async (ruleId: string) =>
  (await api.get<AlertListResponse>(`/alerts/?rule_id=${ruleId}&page_size=100`)).body.alerts;
const listed = (name: string) => async () =>
  (await api.get<{ name: string }[]>(`/containers?host_id=${host.id}`)).body.some(
    (c) => c.name === name,
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  host = (
    await api.post<Host>('/hosts', { name: `plain-${tag}`, url: engine.url, tags: [`al-${tag}`] })
  ).body;
  await waitFor(
    'host online',
    async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
  );
  live = await openLiveClient(t.app, cookie);
});
afterAll(async () => {
  live.close();
  for (const name of made) {
    try {
      dockerCli(engine, ['rm', '-f', name]);
    } catch {
      // already gone
    }
  }
  await t.close();
});

const only = (names: string[]) => ({ container_selector_json: { include: names } });

describe('alert engine against real engines', { timeout: 90_000 }, () => {
  it('container_stopped: within 1 s of docker kill, never for a stop through Berth; a recreate keeps the alert', async () => {
    const killed = run(idle);
    const stopped = run(idle);
    await waitFor('listed', async () => (await listed(killed)()) && (await listed(stopped)()));
    const rule = await addRule({
      name: `stopped-${tag}`,
      scope: 'container',
      kind: 'container_stopped',
      ...only([killed, stopped]),
    });
    const before = notify.mock.calls.length;
    const at = Date.now();
    dockerCli(engine, ['kill', killed]);
    await waitFor(
      'alert_raised live',
      () =>
        live.messages.some(
          (m) =>
            m.message.type === 'alert_raised' && m.message.data.alert.container_name === killed,
        ),
      5000,
    );
    const msg = live.messages.find(
      (m) => m.message.type === 'alert_raised' && m.message.data.alert.container_name === killed,
    );
    expect((msg?.at ?? Infinity) - at).toBeLessThan(1000);
    expect(notify.mock.calls.length).toBe(before + 1);

    const id = (
      await api.get<{ id: string; name: string }[]>(`/containers?host_id=${host.id}`)
    ).body.find((c) => c.name === stopped)?.id;
    expect((await api.post(`/hosts/${host.id}/containers/${id}/stop`)).status).toBe(200);
    await sleep(1500);
    const alerts = await alertsOf(rule.id);
    expect(alerts.map((a) => a.container_name)).toEqual([killed]);
    const [first] = alerts as [Alert];
    expect(first).toMatchObject({
      scope_id: containerScopeId(host.id, killed),
      kind: 'container_stopped',
      state: 'open',
    });

    // Recreated under the same name and killed again: the same alert counts another occurrence.
    dockerCli(engine, ['rm', '-f', killed]);
    run(idle, killed);
    await waitFor('recreated listed', listed(killed));
    dockerCli(engine, ['kill', killed]);
    await waitFor(
      'second occurrence',
      async () => (await alertsOf(rule.id))[0]?.occurrences === 2,
      5000,
    );
    const after = await alertsOf(rule.id);
    expect(after).toHaveLength(1);
    expect(after[0]?.id).toBe(first.id);
    expect(after[0]?.state).toBe('open');
    await api.delete(`/alerts/rules/${rule.id}`);
  });

  it('cpu_high: one alert after the 10 s duration, open while the load lasts, resolved after clear_duration', async () => {
    const name = run(
      busybox(
        "yes > /dev/null & echo $! > /tmp/load; trap 'exit 0' TERM; while :; do sleep 1; done",
      ),
    );
    await waitFor('listed', listed(name));
    const rule = await addRule({
      name: `cpu-${tag}`,
      scope: 'container',
      kind: 'cpu_high',
      threshold: 25,
      duration_seconds: 10,
      occurrences: 1,
      clear_threshold: 10,
      clear_duration_seconds: 4,
      ...only([name]),
    });
    const created = Date.now();
    await waitFor('cpu alert', async () => (await alertsOf(rule.id)).length > 0, 25_000);
    expect(Date.now() - created).toBeGreaterThanOrEqual(9000);
    await sleep(5000);
    const open = await alertsOf(rule.id);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ state: 'open', kind: 'cpu_high' });
    expect(open[0]?.current_value).toBeGreaterThan(25);
    dockerCli(engine, ['exec', name, 'killall', 'yes']);
    await waitFor(
      'resolved',
      async () => (await alertsOf(rule.id))[0]?.state === 'resolved',
      20_000,
    );
    const done = await alertsOf(rule.id);
    expect(done).toHaveLength(1);
    expect(done[0]?.resolved_reason).toBe('Condition cleared');
    await api.delete(`/alerts/rules/${rule.id}`);
  });

  it('container_unhealthy follows the native HEALTHCHECK; a removed container resolves its alert', async () => {
    const name = run([readRig().images.httpd]);
    await waitFor(
      'healthy',
      () => dockerCli(engine, ['inspect', '-f', '{{.State.Health.Status}}', name]) === 'healthy',
      20_000,
    );
    const rule = await addRule({
      name: `unhealthy-${tag}`,
      scope: 'container',
      kind: 'container_unhealthy',
      clear_duration_seconds: 0,
      ...only([name]),
    });
    dockerCli(engine, ['exec', name, 'rm', '/www/health']);
    await waitFor(
      'unhealthy alert',
      async () => (await alertsOf(rule.id))[0]?.state === 'open',
      20_000,
    );
    dockerCli(engine, ['exec', name, 'sh', '-c', 'echo ok > /www/health']);
    await waitFor(
      'resolved when healthy',
      async () => (await alertsOf(rule.id))[0]?.state === 'resolved',
      20_000,
    );
    expect((await alertsOf(rule.id))[0]?.resolved_reason).toBe('Health check passing again');
    dockerCli(engine, ['exec', name, 'rm', '/www/health']);
    await waitFor(
      'unhealthy again',
      async () => (await alertsOf(rule.id)).some((a) => a.state === 'open'),
      20_000,
    );
    dockerCli(engine, ['rm', '-f', name]);
    await waitFor(
      'Container removed',
      async () => (await alertsOf(rule.id)).some((a) => a.resolved_reason === 'Container removed'),
      20_000,
    );
    await api.delete(`/alerts/rules/${rule.id}`);
  });

  it('host_down raises when the plain engine crashes and resolves when it returns', async () => {
    const rule = await addRule({
      name: `down-${tag}`,
      scope: 'host',
      kind: 'host_down',
      host_selector_json: { tags: [`al-${tag}`] },
    });
    try {
      rigControl('crash', 'plain');
      await waitFor(
        'host_down alert',
        async () => (await alertsOf(rule.id))[0]?.state === 'open',
        30_000,
      );
      expect((await alertsOf(rule.id))[0]).toMatchObject({
        scope_type: 'host',
        scope_id: host.id,
        kind: 'host_down',
      });
    } finally {
      rigControl('start', 'plain');
    }
    await waitFor(
      'resolved when back',
      async () => (await alertsOf(rule.id))[0]?.state === 'resolved',
      40_000,
    );
    expect((await alertsOf(rule.id))[0]?.resolved_reason).toBe('Host is back online');
  });
});
