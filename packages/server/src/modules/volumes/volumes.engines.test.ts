import { randomBytes } from 'node:crypto';
import type {
  AuditEntry,
  Host,
  ResourcePruneResult,
  Volume,
  VolumeDetails,
  VolumePrunePreview,
  VolumeRemoveResponse,
  VolumesResponse,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, rigEngine, runBusybox } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { userSignedIn } from '../../test/users.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;
let adminCookie: string;
const engine = rigEngine('plain');
const tag = randomBytes(3).toString('hex');
const name = (what: string) => `berth-vol-${tag}-${what}`;
const containers: string[] = [];
const volumes: string[] = [];

const volume = (d: string) => {
  volumes.push(d);
  return d;
};

beforeAll(async () => {
  t = await buildTestApp();
  adminCookie = await signedInCookie(t.app);
  api = apiClient(t.app, adminCookie);
  host = (await api.post<Host>('/hosts', { name: 'plain', url: engine.url })).body;
  await waitFor('host read', async () => {
    const r = await api.get<VolumesResponse>(`/volumes?host=${host.id}`);
    return r.status === 200 && r.body.hosts[0]?.error === null;
  });
});
afterAll(async () => {
  for (const c of containers) dockerCli(engine, ['rm', '-f', c]);
  for (const v of volumes) {
    try {
      dockerCli(engine, ['volume', 'rm', '-f', v]);
    } catch {
      // removed by the test
    }
  }
  await t.close();
});

describe('volumes on a real engine', () => {
  it('creates a volume, lists it with its user and size, and inspects it', async () => {
    const made = await api.post<Volume>(`/hosts/${host.id}/volumes`, {
      name: volume(name('data')),
      labels: { 'berth.test': tag },
      driver_opts: {},
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: name('data'), driver: 'local', in_use_by: [] });
    const c = name('user');
    containers.push(c);
    runBusybox(engine, c, {
      command: 'dd if=/dev/zero of=/d/blob bs=1024 count=64 2>/dev/null; sleep 100000',
      options: ['-v', `${name('data')}:/d`],
    });
    await waitFor('blob written', () =>
      dockerCli(engine, ['exec', c, 'ls', '/d']).includes('blob'),
    );
    const list = await api.get<VolumesResponse>(`/volumes?host=${host.id}&sizes=true`);
    expect(list.status).toBe(200);
    const v = list.body.volumes.find((x) => x.name === name('data'));
    expect(v?.in_use_by.map((d) => d.name)).toEqual([c]);
    expect(v?.labels['berth.test']).toBe(tag);
    expect(list.body.sizes_note).toBeNull();
    expect(v?.size_bytes).toBeGreaterThanOrEqual(64 * 1024);
    const inspect = await api.get<VolumeDetails>(`/hosts/${host.id}/volumes/${name('data')}`);
    expect(inspect.status).toBe(200);
    expect(inspect.body.raw.Name).toBe(name('data'));
  });

  it('refuses bad input, naming the field, and a duplicate name', async () => {
    const bad = await api.post<{ detail: string }>(`/hosts/${host.id}/volumes`, { name: '-x' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail.toLowerCase()).toContain('name');
    const dup = await api.post<{ detail: string }>(`/hosts/${host.id}/volumes`, {
      name: name('data'),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toContain('already exists');
    const driver = await api.post<{ detail: string }>(`/hosts/${host.id}/volumes`, {
      name: volume(name('nodriver')),
      driver: 'no-such-driver',
    });
    expect(driver.status).toBe(400);
    expect(driver.body.detail).toMatch(/^driver: .*not found/);
    // The engine looks for a plugin for a while before it says it has none.
  }, 60_000);

  it("refuses to remove a volume in use with the engine's words; force removes the stopped user", async () => {
    const refused = await api.delete<{ detail: string }>(
      `/hosts/${host.id}/volumes/${name('data')}`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('volume is in use');
    expect(refused.body.detail).toContain(name('user'));
    // Running: force is refused too, and names the container.
    const running = await api.delete<{ detail: string }>(
      `/hosts/${host.id}/volumes/${name('data')}?force=true`,
    );
    expect(running.status).toBe(409);
    expect(running.body.detail).toContain('stop it first');
    dockerCli(engine, ['stop', '-t', '0', name('user')]);
    const forced = await api.delete<VolumeRemoveResponse>(
      `/hosts/${host.id}/volumes/${name('data')}?force=true`,
    );
    expect(forced.status).toBe(200);
    expect(forced.body.removed_containers).toEqual([name('user')]);
    expect(dockerCli(engine, ['volume', 'ls', '-q'])).not.toContain(name('data'));
    await t.app.services.audit.flush();
    await waitFor('audited', async () => {
      const rows = (await api.get<{ entries: AuditEntry[] }>('/audit?limit=50')).body.entries;
      return (
        rows.some((r) => r.action === 'volume.delete' && r.status === 200) &&
        rows.some((r) => r.action === 'container.remove' && r.container_name === name('user'))
      );
    });
  });

  it('prunes only what the dry run counted and is still unused', async () => {
    const a = volume(name('prune-a'));
    const b = volume(name('prune-b'));
    dockerCli(engine, ['volume', 'create', a]);
    dockerCli(engine, ['volume', 'create', b]);
    const preview = await api.get<VolumePrunePreview>(`/hosts/${host.id}/prune/volumes`);
    expect(preview.status).toBe(200);
    expect(preview.body.names).toEqual(expect.arrayContaining([a, b]));
    // b gets a user between the dry run and the confirm: it is skipped.
    const c = name('late');
    containers.push(c);
    dockerCli(engine, ['create', '--name', c, '-v', `${b}:/d`, 'berth-test/busybox:1.0', 'true']);
    const pruned = await api.post<ResourcePruneResult>(`/hosts/${host.id}/prune/volumes`, {
      names: [a, b],
    });
    expect(pruned.status).toBe(200);
    expect(pruned.body.removed).toEqual([a]);
    expect(pruned.body.skipped).toEqual([{ name: b, reason: `in use by ${c}` }]);
  });

  it('lets viewers read and keeps changes to admins', async () => {
    const viewer = await userSignedIn(t.app, adminCookie, `op${tag}`, 'operator');
    const as = apiClient(t.app, viewer.cookie);
    expect((await as.get(`/volumes?host=${host.id}`)).status).toBe(200);
    expect((await as.post(`/hosts/${host.id}/volumes`, { name: name('op') })).status).toBe(403);
    expect((await as.post(`/hosts/${host.id}/prune/volumes`, { names: ['x'] })).status).toBe(403);
  });
});
