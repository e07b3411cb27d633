import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { EventsResponse, Host } from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { garbageEngine, silentEngine, type FakeEngine } from '../../test/fake-engines.js';
import { dockerCli, readRig, rigControl, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

/** Faults on the plain-tcp engine: a crash, and a network cut made with iptables. */
const plain = rigEngine('plain');
const port = new URL(plain.url.replace('tcp://', 'http://')).port;
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;

beforeEach(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'faulty', url: plain.url })).body;
  await waitFor(
    'online',
    async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
  );
});
afterEach(async () => {
  await t.close();
  rigControl('start', 'plain');
  execFileSync('bash', [
    '-c',
    `iptables -D INPUT -i lo -p tcp --dport ${port} -j DROP 2>/dev/null || true`,
  ]);
  dockerCli(plain, ['ps', '-aq', '--filter', 'label=berth-test=1'])
    .split('\n')
    .filter(Boolean)
    .forEach((id) => dockerCli(plain, ['rm', '-f', id]));
});

const statusOf = async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status;
const hostEvents = async () =>
  (await api.get<EventsResponse>(`/events/host/${host.id}?limit=200`)).body.events;
/** A container's state changes in the log (`type old>new`), from `sinceMs` on. */
const changesOf = async (name: string, sinceMs = 0) =>
  (await hostEvents())
    .filter((e) => e.container_name === name && Date.parse(e.timestamp) >= sinceMs)
    .filter((e) => ['started', 'died', 'state_change'].includes(e.event_type))
    .map((e) => `${e.event_type} ${e.old_state}>${e.new_state}`)
    .sort();
const runNamed = (args: string[]) => {
  const name = `berth-f-${randomBytes(3).toString('hex')}`;
  dockerCli(plain, [
    'run',
    '-d',
    '--init',
    '--label',
    'berth-test=1',
    '--name',
    name,
    readRig().images.busybox,
    ...args,
  ]);
  return name;
};

describe('a lost engine', () => {
  it('is offline within 10 s of a crash and online again after a restart, with host events', async () => {
    const lost = runNamed(['sleep', '600']);
    await waitFor('seen', async () => (await changesOf(lost)).includes('started created>running'));
    const pid = Number(dockerCli(plain, ['inspect', '-f', '{{.State.Pid}}', lost]).trim());
    const crashed = Date.now();
    rigControl('crash', 'plain');
    await waitFor('offline', async () => (await statusOf()) === 'offline', 10_000, 100);
    expect(Date.now() - crashed).toBeLessThan(10_000);
    expect((await api.get<Host>(`/hosts/${host.id}`)).body.stats).toBeNull();
    // An exit while the engine is down: whatever the restarted engine's history holds of it,
    // it is logged once (the replayed event, or drift when the event is not there).
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ESRCH: it went down with the engine, which is the same change
    }
    rigControl('start', 'plain');
    await waitFor('online again', async () => (await statusOf()) === 'online', 15_000, 100);
    const types = (await hostEvents()).map((e) => e.event_type);
    expect(types).toEqual(expect.arrayContaining(['disconnection', 'connection']));
    const exit = (change: string) => /^(died|state_change) running>exited$/.test(change);
    const changes = await waitFor('the exit logged', async () => {
      const all = await changesOf(lost, crashed);
      return all.some(exit) ? all : undefined;
    });
    expect(changes.filter((c) => c.startsWith('died') || c.startsWith('state_change'))).toEqual([
      expect.stringMatching(/running>exited$/),
    ]);
  }, 60_000);

  it('loses no container event across a 20 s network cut', async () => {
    const stopping = runNamed(['sleep', '600']);
    await waitFor(
      'seen',
      async () =>
        (await hostEvents()).some(
          (e) => e.container_name === stopping && e.event_type === 'started',
        ),
      5000,
    );
    execFileSync('iptables', [
      '-I',
      'INPUT',
      '-i',
      'lo',
      '-p',
      'tcp',
      '--dport',
      port,
      '-j',
      'DROP',
    ]);
    const cutAt = Date.now();
    await waitFor(
      'offline during the cut',
      async () => (await statusOf()) === 'offline',
      12_000,
      200,
    );
    // Changes the monitor cannot see while the port drops packets (made through the unix socket).
    const startedDuringCut = runNamed(['sleep', '600']);
    dockerCli(plain, ['stop', '-t', '1', stopping]);
    const exitedDuringCut = runNamed(['sh', '-c', 'exit 3']);
    await new Promise((r) => setTimeout(r, Math.max(0, 20_000 - (Date.now() - cutAt))));
    execFileSync('iptables', [
      '-D',
      'INPUT',
      '-i',
      'lo',
      '-p',
      'tcp',
      '--dport',
      port,
      '-j',
      'DROP',
    ]);
    await waitFor('online after the cut', async () => (await statusOf()) === 'online', 15_000, 200);
    const events = await waitFor(
      'replayed events',
      async () => {
        const list = await hostEvents();
        const has = (name: string, type: string) =>
          list.some((e) => e.container_name === name && e.event_type === type);
        return has(startedDuringCut, 'started') &&
          has(stopping, 'died') &&
          has(exitedDuringCut, 'died')
          ? list
          : undefined;
      },
      5000,
    );
    const died = events.find(
      (e) => e.container_name === exitedDuringCut && e.event_type === 'died',
    );
    expect(died).toMatchObject({ severity: 'error', message: 'Exit code 3', new_state: 'exited' });
    // Each change once, with the state it left: the gap's events go in before the relist,
    // which once logged them as drift ("Detected after reconnecting") as well.
    expect(await changesOf(startedDuringCut, cutAt)).toEqual(['started created>running']);
    expect(await changesOf(stopping, cutAt)).toEqual(['died running>exited']);
    expect(await changesOf(exitedDuringCut, cutAt)).toEqual([
      'died running>exited',
      'started created>running',
    ]);
    const list = await api.get<{ name: string; state: string }[]>(`/containers?host_id=${host.id}`);
    expect(list.body.find((c) => c.name === startedDuringCut)?.state).toBe('running');
    expect(list.body.find((c) => c.name === stopping)?.state).toBe('exited');
  }, 90_000);
});

describe('an address that is not a working engine', () => {
  let fakes: FakeEngine[] = [];
  afterEach(async () => {
    await Promise.all(fakes.map((f) => f.close()));
    fakes = [];
  });

  it('is offline with a clear reason, retried, while the real engine stays online', async () => {
    expect((await api.put('/settings', { connection_timeout: 5 })).status).toBe(200);
    const silent = await silentEngine();
    const garbage = await garbageEngine();
    fakes = [silent, garbage];
    const add = async (name: string, url: string) =>
      (await api.post<Host>('/hosts', { name, url })).body.id;
    const silentId = await add('silent', silent.url);
    const garbageId = await add('garbage', garbage.url);
    const added = Date.now();
    const reasonOf = async (id: string) => {
      const got = (await api.get<Host>(`/hosts/${id}`)).body;
      return got.status === 'offline' && got.error !== 'Connecting...' ? got.error : undefined;
    };
    expect(await waitFor('garbage reason', () => reasonOf(garbageId), 5000, 100)).toBe(
      'Not a Docker engine',
    );
    expect(await waitFor('silent reason', () => reasonOf(silentId), 9000, 100)).toBe(
      'Engine did not answer within 5 s',
    );
    // Within the 5 s timeout and a little, not the old "connecting" forever.
    expect(Date.now() - added).toBeLessThan(8000);
    expect(await statusOf()).toBe('online');
    // Retried with backoff: the silent one is still told apart, the real engine unaffected.
    await new Promise((r) => setTimeout(r, 2000));
    expect(await reasonOf(silentId)).toBe('Engine did not answer within 5 s');
    expect(await reasonOf(garbageId)).toBe('Not a Docker engine');
    expect(await statusOf()).toBe('online');
  }, 40_000);
});
