import { randomBytes } from 'node:crypto';
import type { Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';
import type { Fleet, FleetEventMap } from './index.js';

// The seam later features (alert evaluation, update execution, health checks) build on.
let t: TestApp;
let fleet: Fleet;
let host: Host;
const engine = rigEngine('plain');
const name = `berth-fleet-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  t = await buildTestApp();
  const api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'fleet-plain', url: engine.url })).body;
  fleet = t.app.services.monitor;
  await waitFor('host online', () => Promise.resolve(fleet.host(host.id)?.status === 'online'));
});
afterAll(async () => {
  try {
    dockerCli(engine, ['rm', '-f', name]);
  } catch {
    // already gone
  }
  await t.close();
});

describe('the Fleet', () => {
  it('tells subscribers about container changes with frozen snapshots naming the host', async () => {
    const seen: FleetEventMap['containerChanged'][] = [];
    const off = fleet.on('containerChanged', (e) => {
      if (e.name === name) seen.push(e);
    });
    const id = dockerCli(engine, [
      'run',
      '-d',
      '--init',
      '--name',
      name,
      readRig().images.busybox,
      'sleep',
      '600',
    ]).slice(0, 12);
    const started = await waitFor('start event', () =>
      Promise.resolve(seen.find((e) => e.action === 'start')),
    );
    off();
    expect(started).toMatchObject({ hostId: host.id, containerId: id });
    expect(started.container).toMatchObject({ hostName: 'fleet-plain', state: 'running', id });
    expect(Object.isFrozen(started.container)).toBe(true);

    const snapshot = fleet.container(host.id, id);
    expect(snapshot?.name).toBe(name);
    expect(fleet.containerByName(host.id, name)?.id).toBe(id);
    expect(fleet.containers(host.id).map((c) => c.id)).toContain(id);
    // Readers cannot change the live picture.
    expect(() => Object.assign(snapshot ?? {}, { state: 'exited' })).toThrow(TypeError);
    expect(fleet.container(host.id, id)?.state).toBe('running');
  });

  it('hands out engines by purpose, and none for an unknown host', async () => {
    const engine = fleet.engine(host.id, { purpose: 'query' });
    expect(engine).not.toBeNull();
    await expect(engine?.ping()).resolves.toBeUndefined();
    expect(fleet.engine(host.id, { purpose: 'action' })).not.toBeNull();
    expect(fleet.engine('nope', { purpose: 'query' })).toBeNull();
  });

  it('keeps running its other subscribers when one throws', async () => {
    const calls: string[] = [];
    const offBad = fleet.on('statsSampled', () => {
      throw new Error('faulty subscriber');
    });
    const offGood = fleet.on('statsSampled', ({ at }) => calls.push(at));
    await waitFor('a stats pass', () => Promise.resolve(calls.length > 0), 20_000);
    offBad();
    offGood();
    expect(Date.parse(calls[0] ?? '')).not.toBeNaN();
  });
});
