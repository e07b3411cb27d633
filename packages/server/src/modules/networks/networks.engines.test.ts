import { randomBytes } from 'node:crypto';
import type {
  Host,
  NetworkCreated,
  NetworkDetails,
  NetworkPrunePreview,
  NetworksResponse,
  ResourcePruneResult,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, rigEngine, runBusybox } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;
const engine = rigEngine('plain');
const tag = randomBytes(3).toString('hex');
const name = (what: string) => `berth-net-${tag}-${what}`;
const containers: string[] = [];
const networks: string[] = [];
// A /24 of 10.213.x.0 picked at random so parallel runs do not overlap.
const third = 16 + ((randomBytes(1)[0] ?? 0) % 200);
const subnet = `10.213.${third}.0/24`;

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'plain', url: engine.url })).body;
  await waitFor('host read', async () => {
    const r = await api.get<NetworksResponse>(`/networks?host=${host.id}`);
    return r.status === 200 && r.body.hosts[0]?.error === null;
  });
});
afterAll(async () => {
  for (const c of containers) dockerCli(engine, ['rm', '-f', c]);
  for (const n of networks) {
    try {
      dockerCli(engine, ['network', 'rm', n]);
    } catch {
      // removed by the test
    }
  }
  await t.close();
});

describe('networks on a real engine', () => {
  it('creates a network with a subnet and gateway, lists its containers, inspects it', async () => {
    networks.push(name('app'));
    const made = await api.post<NetworkCreated>(`/hosts/${host.id}/networks`, {
      name: name('app'),
      subnet,
      gateway: subnet.replace('0/24', '1'),
      internal: true,
      attachable: true,
      labels: { 'berth.test': tag },
    });
    expect(made.status).toBe(201);
    const c = name('member');
    containers.push(c);
    runBusybox(engine, c, { options: ['--network', name('app')] });
    const list = await api.get<NetworksResponse>(`/networks?host=${host.id}`);
    const n = list.body.networks.find((x) => x.name === name('app'));
    expect(n).toMatchObject({
      internal: true,
      attachable: true,
      builtin: false,
      subnets: [{ subnet, gateway: subnet.replace('0/24', '1') }],
    });
    expect(n?.in_use_by.map((d) => d.name)).toEqual([c]);
    expect(list.body.networks.find((x) => x.name === 'bridge')?.builtin).toBe(true);
    const inspect = await api.get<NetworkDetails>(`/hosts/${host.id}/networks/${name('app')}`);
    expect(inspect.status).toBe(200);
    expect(inspect.body.raw.Name).toBe(name('app'));
  });

  it('refuses bad input naming the field, and a duplicate with the engine words', async () => {
    const post = (body: object) =>
      api.post<{ detail: string }>(`/hosts/${host.id}/networks`, { name: name('bad'), ...body });
    const badSubnet = await post({ subnet: '10.0.0.0/33' });
    expect(badSubnet.status).toBe(400);
    expect(badSubnet.body.detail.toLowerCase()).toContain('subnet');
    const outside = await post({ subnet, gateway: '192.168.1.1' });
    expect(outside.status).toBe(400);
    expect(outside.body.detail.toLowerCase()).toContain('gateway');
    expect(outside.body.detail).toContain('inside the subnet');
    const noSubnet = await post({ gateway: '10.0.0.1' });
    expect(noSubnet.status).toBe(400);
    const badName = await post({ name: 'a b' });
    expect(badName.status).toBe(400);
    expect(badName.body.detail.toLowerCase()).toContain('name');
    const dup = await api.post<{ detail: string }>(`/hosts/${host.id}/networks`, {
      name: name('app'),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toMatch(/^name: .*already exists/);
  });

  it('refuses to remove a built-in network or one in use, with the engine words', async () => {
    const bridge = await api.delete<{ detail: string }>(`/hosts/${host.id}/networks/bridge`);
    expect(bridge.status).toBe(409);
    expect(bridge.body.detail).toContain('built-in');
    const inUse = await api.delete<{ detail: string }>(`/hosts/${host.id}/networks/${name('app')}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.detail).toContain('active endpoints');
    expect(inUse.body.detail).toContain(name('member'));
    dockerCli(engine, ['rm', '-f', name('member')]);
    const gone = await api.delete(`/hosts/${host.id}/networks/${name('app')}`);
    expect(gone.status).toBe(200);
  });

  it('prunes only what the dry run counted and is still unused', async () => {
    const a = name('prune-a');
    const b = name('prune-b');
    networks.push(a, b);
    dockerCli(engine, ['network', 'create', a]);
    dockerCli(engine, ['network', 'create', b]);
    const preview = await api.get<NetworkPrunePreview>(`/hosts/${host.id}/prune/networks`);
    expect(preview.status).toBe(200);
    const names = preview.body.networks.map((n) => n.name);
    expect(names).toEqual(expect.arrayContaining([a, b]));
    expect(names).not.toContain('bridge');
    const c = name('late');
    containers.push(c);
    dockerCli(engine, ['create', '--name', c, '--network', b, 'berth-test/busybox:1.0', 'true']);
    const ids = preview.body.networks.filter((n) => n.name === a || n.name === b).map((n) => n.id);
    const pruned = await api.post<ResourcePruneResult>(`/hosts/${host.id}/prune/networks`, {
      ids,
    });
    expect(pruned.status).toBe(200);
    expect(pruned.body.removed).toEqual([a]);
    expect(pruned.body.skipped).toEqual([{ name: b, reason: `in use by ${c}` }]);
  });
});
