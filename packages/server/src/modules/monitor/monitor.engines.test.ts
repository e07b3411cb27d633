import { randomBytes } from 'node:crypto';
import { containerKey } from '@berth/contracts';
import type { BerthEvent, Container, EventsResponse, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, readRig, rigEngine, type RigEngine } from '../../test/rig.js';
import { addRigHosts } from '../../test/rig-hosts.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let live: Awaited<ReturnType<typeof openLiveClient>>;
let hosts: Record<RigEngine['name'], Host>;
const ENGINES = ['local', 'plain', 'tls'] as const;
const created: [RigEngine, string][] = [];

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  hosts = await addRigHosts(api);
  live = await openLiveClient(t.app, cookie);
});
afterAll(async () => {
  live.close();
  for (const [engine, name] of created) {
    try {
      dockerCli(engine, ['rm', '-f', name]);
    } catch {
      // already gone
    }
  }
  await t.close();
});

/** Runs a labelled test container with the docker CLI; returns its name and 12-char id. */
function run(engine: RigEngine, args: string[], image = readRig().images.busybox) {
  const name = `berth-t-${randomBytes(4).toString('hex')}`;
  const id = dockerCli(engine, [
    'run',
    '-d',
    '--init',
    '--label',
    'berth-test=1',
    '--name',
    name,
    image,
    ...args,
  ]).slice(0, 12);
  created.push([engine, name]);
  return { name, id };
}

const containers = async () => (await api.get<Container[]>('/containers')).body;
const find = async (hostId: string, id: string) =>
  (await containers()).find((c) => c.host_id === hostId && c.id === id);
const pushedState = (since: number, hostId: string, id: string, state: string) =>
  live.messages.find(
    (m) =>
      m.at >= since &&
      m.message.type === 'containers_update' &&
      m.message.data.containers.some(
        (c) => c.host_id === hostId && c.id === id && c.state === state,
      ),
  );

describe.each(ENGINES)('the %s engine', (name) => {
  it('shows a CLI-started container within 1 s, and its stop within 1 s, with events', async () => {
    const engine = rigEngine(name);
    const host = hosts[name];
    const started = Date.now();
    const { id, name: cname } = run(engine, ['sleep', '300']);
    // docker run returns once the engine started it; Berth may still be between create and start.
    const seen = await waitFor(
      'container listed as running',
      async () => {
        const c = await find(host.id, id);
        return c?.state === 'running' ? c : undefined;
      },
      1000,
      20,
    );
    expect(seen).toMatchObject({ state: 'running', name: cname, host_name: `rig-${name}` });
    const pushed = await waitFor(
      'pushed running',
      () => pushedState(started, host.id, id, 'running'),
      1000,
      20,
    );
    expect(pushed.at - started).toBeLessThan(1500);

    const stopAt = Date.now();
    dockerCli(engine, ['stop', '-t', '1', cname]);
    const afterStop = Date.now();
    const stoppedPush = await waitFor(
      'pushed exited',
      () => pushedState(stopAt, host.id, id, 'exited'),
      1000,
      20,
    );
    expect(stoppedPush.at - afterStop).toBeLessThan(1000);
    const events = await waitFor(
      'die event',
      async () => {
        const r = (
          await api.get<EventsResponse>(
            `/events?container_id=${containerKey(host.id, id)}&limit=50`,
          )
        ).body;
        return r.events.some((e) => e.event_type === 'died') ? r.events : undefined;
      },
      2000,
    );
    const die = events.find((e: BerthEvent) => e.event_type === 'died');
    expect(die).toMatchObject({
      host_name: `rig-${name}`,
      container_name: cname,
      old_state: 'running',
      new_state: 'exited',
    });
    expect(events.map((e) => e.event_type)).toEqual(expect.arrayContaining(['started', 'died']));
  });

  it('runs every container action on the engine, answering the new state', async () => {
    const host = hosts[name];
    const { id } = run(rigEngine(name), ['sleep', '300']);
    await waitFor('listed', () => find(host.id, id), 2000);
    const act = (action: string) =>
      api.post<{ state: string | null }>(`/hosts/${host.id}/containers/${id}/${action}`);
    expect((await act('start')).body).toEqual({ detail: 'Container is already running' });
    expect((await act('pause')).body).toMatchObject({ state: 'paused' });
    expect((await act('unpause')).body).toMatchObject({ state: 'running' });
    expect((await act('stop')).body).toMatchObject({ state: 'exited' });
    expect((await act('stop')).status).toBe(409);
    expect((await act('start')).body).toMatchObject({ state: 'running' });
    expect((await act('restart')).body).toMatchObject({ state: 'running' });
    expect((await act('remove')).body).toMatchObject({ state: null });
    await waitFor('gone from the list', async () => (await find(host.id, id)) === undefined, 2000);
    expect((await act('start')).status).toBe(404);
    const actions = (
      await api.get<EventsResponse>(
        `/events?container_id=${containerKey(host.id, id)}&event_type=action_taken`,
      )
    ).body;
    expect(actions.events.map((e) => e.triggered_by)).toContain('admin');
    expect(actions.total_count).toBe(6); // the refused start and stop change nothing
  });
});

describe('live stats', () => {
  it.each(ENGINES)('a busy container on %s reads above 50 percent CPU', async (name) => {
    const host = hosts[name];
    const { id, name: cname } = run(rigEngine(name), ['sh', '-c', 'yes > /dev/null']);
    const busy = await waitFor(
      'cpu above 50',
      async () => {
        const c = await find(host.id, id);
        return c !== undefined && (c.cpu_percent ?? 0) > 50 ? c : undefined;
      },
      10_000,
      200,
    );
    expect(busy.memory_usage).toBeGreaterThan(0);
    expect(busy.memory_limit).toBeGreaterThan(0);
    // Two vCPUs: a busy loop left running would starve the next engine's case.
    dockerCli(rigEngine(name), ['rm', '-f', cname]);
  });

  it('memory and network figures move when a container allocates and sends', async () => {
    const engine = rigEngine('local');
    const host = hosts.local;
    const web = run(engine, [], readRig().images.httpd);
    const ip = dockerCli(engine, ['inspect', '-f', '{{.NetworkSettings.IPAddress}}', web.name]);
    const client = run(engine, [
      'sh',
      '-c',
      // The shell keeps a 30 MB string in memory while it fetches pages in a loop.
      `x=$(head -c 30000000 /dev/zero | tr '\\0' a); while true; do wget -qO- http://${ip}:8080/ >/dev/null; done`,
    ]);
    const moved = await waitFor(
      'memory and traffic',
      async () => {
        const c = await find(host.id, client.id);
        return c !== undefined &&
          (c.memory_usage ?? 0) > 30_000_000 &&
          (c.network_rx ?? 0) > 10_000 &&
          (c.net_bytes_per_sec ?? 0) > 0
          ? c
          : undefined;
      },
      15_000,
      250,
    );
    expect(moved.network_tx).toBeGreaterThan(0);
    const hostNow = (await api.get<Host[]>('/hosts')).body.find((h) => h.id === host.id);
    expect(hostNow?.stats?.mem_bytes).toBeGreaterThan(30_000_000);
    expect(hostNow?.sparklines?.cpu.length).toBeGreaterThan(0);
  });
});
