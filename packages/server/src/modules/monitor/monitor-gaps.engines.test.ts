import { randomBytes } from 'node:crypto';
import type { EventsResponse, Host } from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { startHoldProxy, type HoldProxy } from '../../test/hold-proxy.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

/** Changes made while Berth cannot follow an engine: each logged once, from its old state. */
const plain = rigEngine('plain');
const plainPort = Number(new URL(plain.url.replace('tcp://', 'http://')).port);
const LABEL = 'berth-test-gaps=1';
let t: TestApp;
let cookie: string;
let api: ReturnType<typeof apiClient>;
let proxy: HoldProxy | null = null;

beforeEach(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
});
afterEach(async () => {
  proxy?.release();
  await t.close();
  await proxy?.close();
  proxy = null;
  dockerCli(plain, ['ps', '-aq', '--filter', `label=${LABEL}`])
    .split('\n')
    .filter(Boolean)
    .forEach((id) => dockerCli(plain, ['rm', '-f', id]));
});

const addHost = async (url: string) => {
  const host = (await api.post<Host>('/hosts', { name: 'gaps', url })).body;
  await waitFor('online', async () => (await statusOf(host.id)) === 'online', 10_000, 100);
  return host;
};
const statusOf = async (id: string) => (await api.get<Host>(`/hosts/${id}`)).body.status;
/** A container's state changes in the log (`type old>new`), from `sinceMs` on. */
const changesOf = async (hostId: string, name: string, sinceMs: number) =>
  (await api.get<EventsResponse>(`/events/host/${hostId}?limit=200`)).body.events
    .filter((e) => e.container_name === name && Date.parse(e.timestamp) >= sinceMs)
    .filter((e) => ['started', 'died', 'state_change'].includes(e.event_type))
    .map((e) => `${e.event_type} ${e.old_state}>${e.new_state}`)
    .sort();
const runIdle = () => {
  const name = `berth-gap-${randomBytes(3).toString('hex')}`;
  const image = readRig().images.busybox;
  dockerCli(plain, [
    'run',
    '-d',
    '--init',
    '--label',
    LABEL,
    '--name',
    name,
    image,
    'sleep',
    '600',
  ]);
  return name;
};
/** The exit is logged; a second entry for it would come within the wait that follows. */
const exitLogged = async (hostId: string, name: string, sinceMs: number) => {
  await waitFor(
    'the exit logged',
    async () => (await changesOf(hostId, name, sinceMs)).some((c) => c.endsWith('>exited')),
    10_000,
    100,
  );
  await new Promise((r) => setTimeout(r, 2000));
  return changesOf(hostId, name, sinceMs);
};

describe('a change while the monitor reconnects', () => {
  it('is logged once when it lands between the reconnect reading the clock and the list', async () => {
    proxy = await startHoldProxy(plainPort);
    const host = await addHost(`tcp://127.0.0.1:${proxy.port}`);
    const name = runIdle();
    await waitFor('seen', async () => (await changesOf(host.id, name, 0)).length > 0, 5000, 100);
    // The stream breaks; the reconnect's list waits at the proxy while the container stops.
    const listHeld = proxy.holdNext('/containers/json');
    const cutAt = Date.now();
    proxy.dropAll();
    await listHeld;
    dockerCli(plain, ['stop', '-t', '1', name]);
    proxy.release();
    await waitFor('online', async () => (await statusOf(host.id)) === 'online', 15_000, 100);
    // Before: `state_change running>exited` from the list, and `died exited>exited` replayed.
    expect(await exitLogged(host.id, name, cutAt)).toEqual(['died running>exited']);
  }, 60_000);
});

describe('a change while Berth is down', () => {
  /** Closes Berth, stops `name` on the engine, starts Berth on the same data: the stop's time. */
  const stopWhileDown = async (hostId: string, name: string) => {
    await t.app.close();
    const stoppedAt = Date.now();
    dockerCli(plain, ['stop', '-t', '1', name]);
    api = apiClient(await t.restart(), cookie);
    await waitFor('online', async () => (await statusOf(hostId)) === 'online', 15_000, 100);
    return stoppedAt;
  };
  /** Every entry of `name` from `sinceMs` on, as `type old>new`. */
  const entriesOf = async (hostId: string, name: string, sinceMs: number) =>
    (await api.get<EventsResponse>(`/events/host/${hostId}?limit=200`)).body.events
      .filter((e) => e.container_name === name && Date.parse(e.timestamp) >= sinceMs)
      .map((e) => `${e.event_type} ${e.old_state}>${e.new_state}`)
      .sort();
  const STOP = ['died running>exited', 'killed running>running', 'stopped exited>exited'];

  it('is logged once after the restart, from the state Berth last saw', async () => {
    const host = await addHost(plain.url);
    const name = runIdle();
    await waitFor('seen', async () => (await changesOf(host.id, name, 0)).length > 0, 5000, 100);
    // Its start's time and state are stored within a second.
    await new Promise((r) => setTimeout(r, 1500));
    const stoppedAt = await stopWhileDown(host.id, name);
    // Before: its first replayed event (the kill) had no old state and put the container in
    // the picture as the engine has it now, so the die that followed read `exited>exited`.
    expect(await exitLogged(host.id, name, stoppedAt)).toEqual(['died running>exited']);
    expect(await entriesOf(host.id, name, stoppedAt)).toEqual(STOP);
  }, 60_000);

  it('is logged for a host that had no event before the restart', async () => {
    const name = runIdle();
    const host = await addHost(plain.url);
    await waitFor(
      'listed',
      async () =>
        (await api.get<{ name: string }[]>(`/containers?host_id=${host.id}`)).body.some(
          (c) => c.name === name,
        ),
      5000,
      100,
    );
    // Before: nothing stored to replay from, and the stop was not logged at all.
    const stoppedAt = await stopWhileDown(host.id, name);
    expect(await exitLogged(host.id, name, stoppedAt)).toEqual(['died running>exited']);
    expect(await entriesOf(host.id, name, stoppedAt)).toEqual(STOP);
  }, 60_000);
});
