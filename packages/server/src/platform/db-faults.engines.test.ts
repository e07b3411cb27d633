import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { EventsResponse, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api.js';
import { dockerCli, readRig, rigEngine } from '../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../test/test-app.js';
import { waitFor } from '../test/wait.js';

/** Longer than the server's busy_timeout (5 s), so its writes give up while the lock is held. */
const HOLD_MS = 7000;
const plain = rigEngine('plain');
const label = `berth-dbfault=${randomBytes(3).toString('hex')}`;
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;

/** Another process holds the write lock on the database file, as a backup tool might. */
function holdWriteLock(dbFile: string): Promise<{ child: ChildProcess; released: Promise<void> }> {
  const script = `
    import SQLite from 'better-sqlite3';
    const db = new SQLite(${JSON.stringify(dbFile)});
    db.exec('BEGIN IMMEDIATE');
    console.log('locked');
    setTimeout(() => { db.exec('COMMIT'); db.close(); console.log('released'); }, ${HOLD_MS});`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: new URL('../..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const released = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`holder ${code}`)))),
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      if (b.toString().includes('locked')) resolve({ child, released });
    });
    released.catch(reject);
  });
}

const runContainer = () => {
  const name = `berth-dbf-${randomBytes(3).toString('hex')}`;
  dockerCli(plain, [
    'run',
    '-d',
    '--label',
    label,
    '--name',
    name,
    readRig().images.busybox,
    'true',
  ]);
  return name;
};
const timed = async <T>(call: () => Promise<T>) => {
  const started = Date.now();
  const value = await call();
  return { value, ms: Date.now() - started };
};
const storedEvents = async () =>
  (await api.get<EventsResponse>(`/events/host/${host.id}?limit=200`)).body.events;

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'db-faults', url: plain.url })).body;
  await waitFor(
    'online',
    async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
  );
});
afterAll(async () => {
  await t.close();
  dockerCli(plain, ['ps', '-aq', '--filter', `label=${label}`])
    .split('\n')
    .filter(Boolean)
    .forEach((id) => dockerCli(plain, ['rm', '-f', id]));
});

describe('a database that refuses writes while engine events arrive', () => {
  it('answers throughout, refuses writes cleanly, and stores events again afterwards', async () => {
    const lock = await holdWriteLock(join(t.config.dataDir, 'berth.db'));
    const lockedAt = Date.now();
    // Engine events whose writes meet the lock (sleep-less busybox: start then die).
    const during = runContainer();
    // A probe sent 1 s in, while the write waits on the lock (better-sqlite3 waits synchronously).
    const lateHealth = async () => {
      await new Promise((r) => setTimeout(r, 1000));
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      return { value: res, ms: Date.now() - lockedAt - 1000 };
    };
    const [health, write, late] = await Promise.all([
      timed(() => t.app.inject({ method: 'GET', url: '/api/health' })),
      timed(() => api.put('/settings', { timezone_offset: 60 })),
      lateHealth(),
    ]);
    const heldWhileAnswered = Date.now() - lockedAt < HOLD_MS;
    await lock.released;
    console.log(
      `db lock ${HOLD_MS} ms: health ${health.value.statusCode} in ${health.ms} ms, ` +
        `write ${write.value.status} in ${write.ms} ms (answered while locked: ${heldWhileAnswered}), ` +
        `health sent 1 s in ${late.value.statusCode} after ${late.ms} ms`,
    );
    expect([200, 503]).toContain(late.value.statusCode);
    expect(late.ms).toBeLessThan(10_000);
    expect([200, 503]).toContain(health.value.statusCode);
    expect(health.ms).toBeLessThan(10_000);
    expect(write.value).toEqual({ status: 503, body: { detail: 'Database is busy; try again' } });
    expect(write.ms).toBeLessThan(10_000);

    // Afterwards: reads, writes and the monitor's event store all work again.
    const healthAfter = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(healthAfter.json()).toMatchObject({ status: 'ok', database: 'ok' });
    expect((await api.get('/hosts')).status).toBe(200);
    expect((await api.get('/containers')).status).toBe(200);
    expect((await api.put('/settings', { timezone_offset: 60 })).status).toBe(200);
    const after = runContainer();
    const events = await waitFor('an event stored after the lock', async () => {
      const stored = await storedEvents();
      return stored.some((e) => e.container_name === after) && stored;
    });
    const lostDuring = !events.some((e) => e.container_name === during);
    console.log(`events of the container started under the lock lost: ${lostDuring}`);
    expect((await api.get<Host>(`/hosts/${host.id}`)).body.status).toBe('online');
  }, 60_000);
});
