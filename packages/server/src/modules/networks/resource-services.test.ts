import { describe, expect, it } from 'vitest';
import type { Engine } from '../../docker/index.js';
import type { Fleet } from '../monitor/index.js';
import { VolumesService } from '../volumes/index.js';
import { NetworksService } from './networks.service.js';

// The services over a fake engine: what is decided before and after the engine answers.

const engineError = (statusCode: number, message: string) =>
  Object.assign(new Error(message), { statusCode, json: { message } });

function fleetWith(engine: Partial<Engine> | null): Fleet {
  return {
    host: (id: string) =>
      id === 'h1' ? { id: 'h1', name: 'alpha', status: 'online', error: null } : undefined,
    hosts: () => [{ id: 'h1', name: 'alpha', status: 'online', error: null }],
    engine: () => engine as Engine | null,
  } as unknown as Fleet;
}

const network = (Name: string, Id = `${Name}-id`) => ({
  Name,
  Id,
  Created: '2026-01-01T00:00:00Z',
  Scope: 'local',
  Driver: 'bridge',
  EnableIPv6: false,
  Internal: false,
  Attachable: false,
  Ingress: false,
  ConfigOnly: false,
  Containers: {},
  Labels: null,
});

describe('networks', () => {
  it('refuses a built-in network without asking the engine to remove it', async () => {
    let removed = false;
    const svc = new NetworksService({
      fleet: fleetWith({
        inspectNetwork: () => Promise.resolve(network('bridge')),
        listContainers: () => Promise.resolve([]),
        removeNetwork: () => {
          removed = true;
          return Promise.resolve();
        },
      }),
    });
    await expect(svc.remove('h1', 'bridge')).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringContaining('built-in') as unknown,
    });
    expect(removed).toBe(false);
  });

  it("keeps the engine's words on create, with the field they are about", async () => {
    const failWith = (err: Error) =>
      new NetworksService({
        fleet: fleetWith({ createNetwork: () => Promise.reject(err) }),
      }).create('h1', { name: 'app-net' });
    await expect(
      failWith(engineError(409, 'network with name app-net already exists')),
    ).rejects.toMatchObject({
      statusCode: 409,
      message: 'name: network with name app-net already exists',
    });
    await expect(
      failWith(engineError(403, 'Pool overlaps with other one on this address space')),
    ).rejects.toMatchObject({ statusCode: 409, message: expect.stringMatching(/^subnet: Pool/) });
    await expect(failWith(engineError(404, 'plugin "x" not found'))).rejects.toMatchObject({
      statusCode: 400,
      message: 'driver: plugin "x" not found',
    });
  });

  it('prunes only what it was given and is still unused; a stopped user keeps a network', async () => {
    const removed: string[] = [];
    const svc = new NetworksService({
      fleet: fleetWith({
        listNetworks: () =>
          Promise.resolve([network('bridge'), network('free'), network('kept'), network('other')]),
        listContainers: () =>
          Promise.resolve([
            {
              Id: 'c'.repeat(64),
              Names: ['/stopped'],
              State: 'exited',
              NetworkSettings: { Networks: { kept: { NetworkID: 'kept-id' } } },
            },
          ] as never),
        removeNetwork: (id: string) => {
          removed.push(id);
          return Promise.resolve();
        },
      }),
    });
    const preview = await svc.prunePreview('h1');
    expect(preview.networks.map((n) => n.name)).toEqual(['free', 'other']);
    const result = await svc.prune('h1', ['free-id', 'kept-id', 'bridge-id', 'gone-id'], 'alice');
    expect(removed).toEqual(['free-id']);
    expect(result.removed).toEqual(['free']);
    expect(result.skipped).toEqual([
      { name: 'kept', reason: 'in use by stopped' },
      { name: 'bridge', reason: 'built-in network' },
      { name: 'gone-id', reason: 'no longer exists' },
    ]);
  });

  it('names a host that is offline in the fleet list instead of failing it', async () => {
    const svc = new NetworksService({ fleet: fleetWith(null) });
    const list = await svc.list(['h1']);
    expect(list.networks).toEqual([]);
    expect(list.hosts).toEqual([
      { host_id: 'h1', host_name: 'alpha', error: 'Host alpha is offline' },
    ]);
  });
});

describe('volumes', () => {
  const volume = (Name: string) => ({
    Name,
    Driver: 'local',
    Mountpoint: `/var/lib/docker/volumes/${Name}/_data`,
    Labels: null,
    Scope: 'local' as const,
    Options: null,
  });

  it('lists without sizes, saying why, when the engine does not measure them in time', async () => {
    const svc = new VolumesService({
      fleet: fleetWith({
        listVolumes: () => Promise.resolve([volume('data')]),
        listContainers: () => Promise.resolve([]),
        volumeSizes: () =>
          Promise.reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
      }),
    });
    const list = await svc.list(['h1'], true);
    expect(list.volumes[0]).toMatchObject({ name: 'data', size_bytes: null, labels: {} });
    expect(list.sizes_note).toBe(
      'Sizes not measured on alpha: the engine did not measure them within 10 s',
    );
  });

  it('refuses to create a name that exists (the engine would hand it back)', async () => {
    const svc = new VolumesService({
      fleet: fleetWith({ inspectVolume: () => Promise.resolve(volume('data')) }),
    });
    await expect(svc.create('h1', { name: 'data' })).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringMatching(/^name: a volume named data already exists/) as unknown,
    });
  });

  it('force never removes a running user, and removes stopped ones before the volume', async () => {
    const calls: string[] = [];
    const user = (name: string, State: string) => ({
      Id: name.padEnd(64, '0'),
      Names: [`/${name}`],
      State,
      Mounts: [{ Type: 'volume', Name: 'data' }],
    });
    const engineFor = (users: object[]) =>
      fleetWith({
        listContainers: () => Promise.resolve(users as never),
        removeContainer: (id: string) => {
          calls.push(`container ${id.slice(0, 4)}`);
          return Promise.resolve();
        },
        removeVolume: (name: string, o?: { force?: boolean }) => {
          calls.push(`volume ${name} ${String(o?.force)}`);
          return Promise.resolve();
        },
      });
    const running = new VolumesService({ fleet: engineFor([user('webb', 'running')]) });
    await expect(running.remove('h1', 'data', true, 'alice')).rejects.toMatchObject({
      statusCode: 409,
      message: 'Volume data is in use by running container webb: stop it first',
    });
    expect(calls).toEqual([]);
    const audit: string[] = [];
    const stopped = new VolumesService({
      fleet: engineFor([user('olds', 'exited')]),
      audit: { record: (e) => audit.push(`${e.action} ${e.container_name ?? ''}`) },
    });
    const answer = await stopped.remove('h1', 'data', true, 'alice');
    expect(answer.removed_containers).toEqual(['olds']);
    expect(calls).toEqual(['container olds', 'volume data true']);
    expect(audit).toEqual(['container.remove olds']);
  });
});
