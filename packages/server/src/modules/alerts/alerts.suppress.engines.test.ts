import { randomBytes } from 'node:crypto';
import { containerScopeId } from '@berth/contracts';
import type {
  AlertListResponse,
  AlertRule,
  Container,
  ExecuteUpdateResponse,
  Host,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// suppress_during_updates on a real update: the rig registry holds an image whose next
// patch version has a failing HEALTHCHECK, so the new container turns unhealthy while the
// updates module verifies it (and then rolls back). A rule without suppression alerts on
// that; the same rule with suppression stays quiet, and alerts again once the update is over.
const engine = rigEngine('plain');
const rand = randomBytes(3).toString('hex');
const repo = `${readRig().registry}/berth-test/al-sup-${rand}`;
const IDLE = "trap 'exit 0' TERM; while :; do sleep 1; done";
const made: string[] = [];
const images: string[] = [];
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;
const cli = (...args: string[]) => dockerCli(engine, args);

function push(tag: string, changes: string[] = []) {
  const tmp = `berth-al-sup-src-${randomBytes(3).toString('hex')}`;
  cli('create', '--name', tmp, readRig().images.busybox, 'true');
  const c = ['-c', `LABEL berth.version=${tag}`, ...changes.flatMap((x) => ['-c', x])];
  cli('commit', ...c, tmp, `${repo}:${tag}`);
  cli('rm', tmp);
  cli('push', '-q', `${repo}:${tag}`);
  images.push(`${repo}:${tag}`);
}
async function addRule(body: object): Promise<AlertRule> {
  const res = await api.post<AlertRule>('/alerts/rules', { severity: 'warning', ...body });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}
const alertsOf = async (ruleId: string) =>
  (await api.get<AlertListResponse>(`/alerts/?rule_id=${ruleId}&page_size=100`)).body.alerts;

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: `sup-${rand}`, url: engine.url, tags: [] })).body;
  await waitFor(
    'host online',
    async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
    60_000,
  );
  t.app.services.updates.settleMs = 1500;
  // The end of an update reaches the engine 3 s late: a rollback can finish before the
  // monitor has passed on the health event of the update's last moments.
  const alerts = t.app.services.alerts;
  const setUpdating = alerts.setUpdating.bind(alerts);
  alerts.setUpdating = (hostId, name, on) => {
    if (on) setUpdating(hostId, name, on);
    else setTimeout(() => setUpdating(hostId, name, on), 3000);
  };
  await api.put('/settings', { health_check_timeout_seconds: 20 });
  push('1.0.0');
  push('1.0.1', ['HEALTHCHECK --interval=1s --timeout=1s --retries=2 CMD false']);
}, 120_000);

afterAll(async () => {
  for (const name of made) {
    try {
      const all = cli('ps', '-a', '--filter', `name=${name}`, '--format', '{{.Names}}');
      for (const n of all.split('\n').filter(Boolean)) cli('rm', '-f', n);
    } catch {
      // already gone
    }
  }
  for (const image of images) {
    try {
      cli('rmi', '-f', image);
    } catch {
      // gone
    }
  }
  await t.close();
}, 60_000);

describe('suppress_during_updates', { timeout: 120_000 }, () => {
  it('holds back container alerts while the container is updated, and only then', async () => {
    const name = `berth-al-sup-${randomBytes(4).toString('hex')}`;
    made.push(name);
    cli('run', '-d', '--name', name, `${repo}:1.0.0`, 'sh', '-c', IDLE);
    const c = await waitFor('listed', async () =>
      (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body.find(
        (x) => x.name === name,
      ),
    );
    const rule = (suppress: boolean) =>
      addRule({
        name: `unhealthy-${suppress ? 'quiet' : 'loud'}-${rand}`,
        scope: 'container',
        kind: 'container_unhealthy',
        suppress_during_updates: suppress,
        container_selector_json: { include: [name] },
      });
    const quiet = await rule(true);
    const loud = await rule(false);

    const base = `/hosts/${c.host_id}/containers/${c.id}`;
    await api.put(`${base}/auto-update-config`, { floating_tag_mode: 'patch' });
    expect((await api.post<{ latest_image: string }>(`${base}/check-update`)).body).toMatchObject({
      latest_image: `${repo}:1.0.1`,
    });
    const res = await api.post<ExecuteUpdateResponse>(`${base}/execute-update`);
    expect(res.body.status).toBe('failed'); // unhealthy, rolled back

    // The new container went unhealthy during the update: the loud rule saw it.
    const [loudAlert] = await waitFor(
      'loud alert',
      async () => ((await alertsOf(loud.id)).length > 0 ? alertsOf(loud.id) : undefined),
      10_000,
    );
    expect(loudAlert).toMatchObject({
      scope_id: containerScopeId(host.id, name),
      kind: 'container_unhealthy',
    });
    expect(await alertsOf(quiet.id)).toEqual([]);

    // Outside an update the same rule alerts: a container of that name turning unhealthy.
    await new Promise((r) => setTimeout(r, 3500));
    cli('rm', '-f', name);
    cli(
      'run',
      '-d',
      '--name',
      name,
      '--health-cmd',
      'false',
      '--health-interval',
      '1s',
      '--health-retries',
      '1',
      readRig().images.busybox,
      'sh',
      '-c',
      IDLE,
    );
    const [quietAlert] = await waitFor(
      'quiet rule alerts once no update runs',
      async () => ((await alertsOf(quiet.id)).length > 0 ? alertsOf(quiet.id) : undefined),
      30_000,
    );
    expect(quietAlert).toMatchObject({ kind: 'container_unhealthy', state: 'open' });
  });
});
