import { randomBytes } from 'node:crypto';
import type { AlertListResponse, AlertRule, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// Rules see every host, whenever it was added: Berth starts with no host and no metric rule
// (nothing would re-read the hosts on a timer), then hosts are added and watched at once.
let t: TestApp;
let api: ReturnType<typeof apiClient>;
const engine = rigEngine('plain');
const tag = randomBytes(3).toString('hex');
const made: string[] = [];
const hostIds: string[] = [];

async function addRule(body: object): Promise<AlertRule> {
  const res = await api.post<AlertRule>('/alerts/rules', { severity: 'error', ...body });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}
async function addHost(name: string, url: string): Promise<Host> {
  const res = await api.post<Host>('/hosts', { name: `${name}-${tag}`, url });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  hostIds.push(res.body.id);
  return res.body;
}
const online = (id: string) => async () =>
  (await api.get<Host>(`/hosts/${id}`)).body.status === 'online';
const alertsOf = async (ruleId: string) =>
  (await api.get<AlertListResponse>(`/alerts/?rule_id=${ruleId}&page_size=100`)).body.alerts;
const firstAlert = (ruleId: string, timeoutMs: number) =>
  waitFor(`alert of rule ${ruleId}`, async () => (await alertsOf(ruleId))[0], timeoutMs, 20);

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
});
afterAll(async () => {
  for (const name of made) dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

describe('rules see hosts added after start', { timeout: 90_000 }, () => {
  it('container_stopped with every host or a host by id raises within 1 s on a new host', async () => {
    const everyHost = await addRule({
      name: `all-hosts-${tag}`,
      scope: 'container',
      kind: 'container_stopped',
      host_selector_json: { include_all: true },
    });
    const plain = await addHost('plain', engine.url);
    const byId = await addRule({
      name: `by-id-${tag}`,
      scope: 'container',
      kind: 'container_stopped',
      host_selector_json: { include: [plain.id] },
    });
    await waitFor('plain online', online(plain.id), 60_000);
    const name = `berth-ah-${randomBytes(4).toString('hex')}`;
    dockerCli(engine, ['run', '-d', '--name', name, readRig().images.busybox, 'sleep', '600']);
    made.push(name);
    await waitFor('listed', () => t.app.services.monitor.containerByName(plain.id, name));
    const at = Date.now();
    dockerCli(engine, ['kill', name]);
    const [a, b] = await Promise.all([firstAlert(everyHost.id, 5000), firstAlert(byId.id, 5000)]);
    for (const alert of [a, b]) {
      expect(alert).toMatchObject({ kind: 'container_stopped', host_id: plain.id });
      expect(Date.parse(alert.first_seen) - at).toBeLessThan(1000);
    }
  });

  it('host rules of every kind watch a host added after start', async () => {
    const local = await addHost('local', rigEngine('local').url);
    const closed = await addHost('closed', 'tcp://127.0.0.1:1');
    const plain = hostIds[0] ?? '';
    const metric = { operator: '>=', threshold: 0, duration_seconds: 1, occurrences: 1 };
    const everyHost = { host_selector_json: { include_all: true } };
    const rules = {
      cpu: await addRule({
        name: `cpu-${tag}`,
        scope: 'host',
        kind: 'cpu_high',
        ...metric,
        ...everyHost,
      }),
      memory: await addRule({
        name: `mem-${tag}`,
        scope: 'host',
        kind: 'memory_high',
        ...metric,
        host_selector_json: { include: [plain] },
      }),
      disk: await addRule({
        name: `disk-${tag}`,
        scope: 'host',
        kind: 'disk_low',
        ...metric,
        ...everyHost,
      }),
      down: await addRule({ name: `down-${tag}`, scope: 'host', kind: 'host_down', ...everyHost }),
    };
    await waitFor('local online', online(local.id), 60_000);
    const scopes = async (ruleId: string) => (await alertsOf(ruleId)).map((a) => a.scope_id).sort();
    await waitFor(
      'every host rule raised',
      async () =>
        (await scopes(rules.cpu.id)).length === 2 &&
        (await scopes(rules.memory.id)).length === 1 &&
        (await scopes(rules.disk.id)).length === 1 &&
        (await scopes(rules.down.id)).length === 1,
      30_000,
    );
    expect(await scopes(rules.cpu.id)).toEqual([local.id, plain].sort());
    expect(await scopes(rules.memory.id)).toEqual([plain]);
    expect(await scopes(rules.disk.id)).toEqual([local.id]);
    expect(await scopes(rules.down.id)).toEqual([closed.id]);
  });
});
