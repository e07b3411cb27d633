import { randomBytes } from 'node:crypto';
import { containerKey, type Container, type Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, endpointOf, rigEngine, runBusybox, type RigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { userSignedIn } from '../../test/users.js';
import { waitFor } from '../../test/wait.js';

/**
 * Two real engines, tagged `staging` (plain) and `prod` (tls), and an operator limited to
 * `staging`: it lists only the staging engine's containers and cannot act on the other's.
 */
let t: TestApp;
let admin: ReturnType<typeof apiClient>;
let operator: ReturnType<typeof apiClient>;
const hosts = {} as Record<'staging' | 'prod', Host>;
const made: [RigEngine, string][] = [];
const ids = {} as Record<'staging' | 'prod', string>;

const startedAt = (engine: RigEngine, name: string) =>
  dockerCli(engine, ['inspect', '-f', '{{.State.StartedAt}}', name]);

beforeAll(async () => {
  t = await buildTestApp();
  const cookie = await signedInCookie(t.app);
  admin = apiClient(t.app, cookie);
  for (const [tag, engineName] of [
    ['staging', 'plain'],
    ['prod', 'tls'],
  ] as const) {
    const engine = rigEngine(engineName);
    const tls = endpointOf(engine).tls;
    const res = await admin.post<Host>('/hosts', {
      name: `scope-${tag}`,
      url: engine.url,
      tags: [tag],
      tls_ca: tls?.ca ?? null,
      tls_cert: tls?.cert ?? null,
      tls_key: tls?.key ?? null,
    });
    if (res.status !== 200) throw new Error(`adding ${tag} failed: ${JSON.stringify(res.body)}`);
    hosts[tag] = res.body;
    const name = `berth-scope-${tag}-${randomBytes(4).toString('hex')}`;
    made.push([engine, name]);
    ids[tag] = runBusybox(engine, name);
  }
  const user = await userSignedIn(t.app, cookie, 'staging-operator', 'operator');
  const scoped = await admin.patch(`/users/${user.id}`, { host_tags: ['staging'] });
  if (scoped.status !== 200) throw new Error(`scoping failed: ${JSON.stringify(scoped.body)}`);
  operator = apiClient(t.app, user.cookie);
  await waitFor(
    'both containers listed for the admin',
    async () => {
      const listed = (await admin.get<Container[]>('/containers')).body;
      return [ids.staging, ids.prod].every((id) =>
        listed.some((c) => c.id === id && c.state === 'running'),
      );
    },
    30_000,
  );
});
afterAll(async () => {
  for (const [engine, name] of made) dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

describe('an operator scoped to staging, on two real engines', { timeout: 60_000 }, () => {
  it('lists only the staging engine and its containers', async () => {
    const listedHosts = (await operator.get<Host[]>('/hosts')).body;
    expect(listedHosts.map((h) => h.id)).toEqual([hosts.staging.id]);
    const containers = (await operator.get<Container[]>('/containers')).body;
    expect(containers.some((c) => c.id === ids.staging)).toBe(true);
    expect(containers.some((c) => c.id === ids.prod)).toBe(false);
    expect(new Set(containers.map((c) => c.host_id))).toEqual(new Set([hosts.staging.id]));
    const asked = await operator.get<Container[]>(`/containers?host_id=${hosts.prod.id}`);
    expect(asked.body).toEqual([]);
    // The admin still sees both engines' containers.
    const all = (await admin.get<Container[]>('/containers')).body;
    expect(new Set(all.map((c) => c.host_id))).toEqual(new Set([hosts.staging.id, hosts.prod.id]));
  });

  it('cannot restart a container on the prod engine, and can on staging', async () => {
    const prod = made.find(([engine]) => engine.name === 'tls');
    const staging = made.find(([engine]) => engine.name === 'plain');
    if (prod === undefined || staging === undefined) throw new Error('containers missing');
    const prodBefore = startedAt(...prod);
    const refused = await operator.post(
      `/hosts/${hosts.prod.id}/containers/${ids.prod}/restart`,
      {},
    );
    expect(refused).toEqual({ status: 404, body: { detail: 'Host not found' } });
    const batch = await operator.post('/batch', {
      scope: 'container',
      action: 'restart',
      ids: [containerKey(hosts.prod.id, ids.prod)],
    });
    expect(batch).toEqual({ status: 404, body: { detail: 'ids.0: Host not found' } });
    expect(startedAt(...prod)).toBe(prodBefore);

    const stagingBefore = startedAt(...staging);
    const done = await operator.post(
      `/hosts/${hosts.staging.id}/containers/${ids.staging}/restart`,
      {},
    );
    expect(done.status).toBe(200);
    expect(startedAt(...staging)).not.toBe(stagingBefore);
  });

  it('keeps per-container maps and tag suggestions to the staging engine', async () => {
    for (const tag of ['staging', 'prod'] as const) {
      const base = `/hosts/${hosts[tag].id}/containers/${ids[tag]}`;
      const tagged = await admin.patch(`${base}/tags`, { tags_to_add: [`${tag}-web`] });
      expect(tagged.status).toBe(200);
      // A disabled check is stored and listed without probing anything.
      const check = await admin.put(`/containers/${hosts[tag].id}/${ids[tag]}/http-health-check`, {
        enabled: false,
      });
      expect(check.status).toBe(200);
    }
    const mine = containerKey(hosts.staging.id, ids.staging);
    const theirs = containerKey(hosts.prod.id, ids.prod);
    await waitFor('both checks listed for the admin', async () => {
      const all = (await admin.get<Record<string, unknown>>('/health-check-configs')).body;
      return mine in all && theirs in all;
    });
    const checks = (await operator.get<Record<string, unknown>>('/health-check-configs')).body;
    expect(Object.keys(checks)).toEqual([mine]);
    const configs = (await operator.get<Record<string, unknown>>('/auto-update-configs')).body;
    expect(mine in configs).toBe(true);
    expect(theirs in configs).toBe(false);
    const tags = (await operator.get<{ tags: string[] }>('/tags/suggest?q=-web')).body.tags;
    expect(tags).toEqual(['staging-web']);
    const adminTags = (await admin.get<{ tags: string[] }>('/tags/suggest?q=-web')).body.tags;
    expect(adminTags.sort()).toEqual(['prod-web', 'staging-web']);
  });
});
