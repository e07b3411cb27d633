import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerKey } from '@berth/contracts';
import type { Container, GlobalSettings, Host } from '@berth/contracts';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../docker/index.js';
import { readRig, rigEngine } from '../test/rig.js';
import {
  ensureServerBuilt,
  httpApi,
  signInAgain,
  signInFirstTime,
  startServer,
  stopServer,
  type ServerProcess,
} from '../test/server-process.js';
import { waitFor } from '../test/wait.js';

/**
 * kill -9 during a burst of writes: every write answered 2xx survives the restart and the
 * file passes integrity_check. (synchronous = NORMAL in WAL mode may lose the newest
 * transactions on power loss, never on a process kill: the WAL is in the OS cache.)
 * SIGTERM during the same burst: the same, plus a clean exit 0 within 10 s with the WAL folded
 * into the database file.
 */
const plain = rigEngine('plain');
const engine = openEngine({ url: plain.socket });
const label = `berth-crash-${randomBytes(3).toString('hex')}`;
const SETTINGS_LANES = {
  timezone_offset: (n: number) => (n % 1500) - 720,
  alert_retention_days: (n: number) => (n % 730) + 1,
  alert_template: (n: number) => `template ${n}`,
} as const;
type SettingKey = keyof typeof SETTINGS_LANES;

let dataDir: string;
let server: ServerProcess;
let hostId: string;
const containerIds: string[] = [];

type Call = ReturnType<typeof httpApi>;
/** One lane's requests in order; `sent` holds everything, acknowledged or not. */
interface Lane<T> {
  sent: T[];
  acked: T[];
}

/** Sequential requests until the server dies; a 2xx answer is an acknowledgement. */
async function runLane<T>(
  lane: Lane<T>,
  next: (n: number) => T,
  send: (op: T) => Promise<{ status: number }>,
) {
  for (let n = 0; ; n++) {
    const op = next(n);
    lane.sent.push(op);
    try {
      const res = await send(op);
      if (res.status >= 200 && res.status < 300) lane.acked.push(op);
    } catch {
      return; // the connection died with the server
    }
  }
}

const newLane = <T>(): Lane<T> => ({ sent: [], acked: [] });
const shortId = (id: string) => id.slice(0, 12);

async function createContainers(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const id = await engine.createContainer({
      Image: readRig().images.busybox,
      Cmd: ['sleep', '600'],
      Labels: { [label]: '1' },
      name: `${label}-${i}`,
    });
    containerIds.push(shortId(id));
    await engine.startContainer(id);
  }
}

async function listed(call: Call): Promise<Container[]> {
  return waitFor(
    'the containers listed',
    async () => {
      const res = await call<Container[]>('GET', `/containers?host_id=${hostId}`);
      const mine = res.body.filter((c) => containerIds.includes(shortId(c.id)));
      return mine.length === containerIds.length && mine;
    },
    20_000,
    200,
  );
}

function integrityOf(dir: string): string {
  const db = new SQLite(join(dir, 'berth.db'));
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  ensureServerBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'berth-crash-'));
  server = await startServer(dataDir);
  const call = httpApi(server.base, await signInFirstTime(server.base));
  const host = await call<Host>('POST', '/hosts', { name: 'crash', url: plain.url });
  hostId = host.body.id;
  await createContainers(4);
  await listed(call);
});

afterAll(async () => {
  await stopServer(server);
  await Promise.all(
    containerIds.map((id) => engine.removeContainer(id, { force: true }).catch(() => undefined)),
  );
  rmSync(dataDir, { recursive: true, force: true });
});

interface BurstOutcome {
  lost: number;
  acked: { settings: number; tags: number; batch: number };
  burstMs: number;
  /** integrity_check right after the stop, before the restart. */
  integrityAfterStop: string;
  restartMs: number;
}

/**
 * Sequential writes on several lanes (settings, tags, batch jobs) until `stopAt` ends the
 * server; then restarts it and checks every write answered 2xx, or a later one of its lane.
 */
async function burstThenRestart(stopAt: () => Promise<void>): Promise<BurstOutcome> {
  const call = httpApi(server.base, await signInAgain(server.base));
  const batchTarget = containerIds[3] ?? '';
  const settings = new Map<string, Lane<unknown>>(
    Object.keys(SETTINGS_LANES).map((k) => [k, newLane<unknown>()]),
  );
  const tags = new Map(containerIds.slice(0, 3).map((id) => [id, newLane<number>()]));
  const batches = [newLane<string>(), newLane<string>()];
  const batchIds: string[] = [];

  const lanes = [
    ...Object.entries(SETTINGS_LANES).map(([key, valueOf]) =>
      runLane(settings.get(key) ?? newLane(), valueOf, (value) =>
        call('PUT', '/settings', { [key]: value }),
      ),
    ),
    // Op n adds tag-n and removes tag-(n-3): at most four tags, and removals to check too.
    ...[...tags].map(([id, lane]) =>
      runLane(
        lane,
        (n) => n,
        (n) =>
          call('PATCH', `/hosts/${hostId}/containers/${id}/tags`, {
            tags_to_add: [`tag-${n}`],
            tags_to_remove: n >= 3 ? [`tag-${n - 3}`] : [],
          }),
      ),
    ),
    ...batches.map((lane) =>
      runLane(
        lane,
        (n) => String(n),
        async () => {
          const res = await call<{ job_id: string }>('POST', '/batch', {
            scope: 'container',
            action: 'set-auto-restart',
            ids: [containerKey(hostId, batchTarget)],
            params: { enabled: false },
          });
          if (res.status === 200) batchIds.push(res.body.job_id);
          return res;
        },
      ),
    ),
  ];
  const started = Date.now();
  await stopAt();
  await Promise.all(lanes);
  const burstMs = Date.now() - started;

  const integrityAfterStop = integrityOf(dataDir);
  const restartAt = Date.now();
  server = await startServer(dataDir);
  const restartMs = Date.now() - restartAt;
  const after = httpApi(server.base, await signInAgain(server.base));

  let lost = 0;
  const check = (ok: boolean, what: string) => {
    if (!ok) {
      lost++;
      console.log(`lost: ${what}`);
    }
  };
  // Settings: the last acknowledged value, or a later one whose answer never arrived.
  const stored = (await after<GlobalSettings>('GET', '/settings')).body;
  for (const [key, lane] of settings) {
    const last = lane.acked.length - 1;
    if (last < 0) continue;
    const allowed = lane.sent.slice(lane.sent.indexOf(lane.acked[last]));
    check(allowed.includes(stored[key as SettingKey]), `setting ${key}`);
  }
  // Tags: an acknowledged add stays unless a later request (answered or not) removed it;
  // an acknowledged removal stays removed.
  const containers = await listed(after);
  for (const [id, lane] of tags) {
    const now = containers.find((c) => shortId(c.id) === id)?.tags ?? [];
    const lastSent = lane.sent.length - 1;
    for (const n of lane.acked) {
      if (n + 3 > lastSent) check(now.includes(`tag-${n}`), `tag-${n} on ${id}`);
      if (n >= 3) check(!now.includes(`tag-${n - 3}`), `removal of tag-${n - 3} on ${id}`);
    }
  }
  // Batch jobs: every acknowledged id is there.
  for (const jobId of batchIds)
    check((await after('GET', `/batch/${jobId}`)).status === 200, `batch job ${jobId}`);
  const acked = {
    settings: [...settings.values()].reduce((s, l) => s + l.acked.length, 0),
    tags: [...tags.values()].reduce((s, l) => s + l.acked.length, 0),
    batch: batchIds.length,
  };
  return { lost, acked, burstMs, integrityAfterStop, restartMs };
}

const ackedCount = (o: BurstOutcome) => o.acked.settings + o.acked.tags + o.acked.batch;
const describeAcked = (o: BurstOutcome) =>
  `acknowledged ${o.acked.settings} settings, ${o.acked.tags} tag changes, ` +
  `${o.acked.batch} batch jobs; lost ${o.lost}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('kill -9 during a burst of writes', () => {
  it('keeps every acknowledged write and a sound database file', async () => {
    const killAfter = 1000 + Math.floor(Math.random() * 1000);
    const outcome = await burstThenRestart(async () => {
      await sleep(killAfter);
      server.child.kill('SIGKILL');
      expect((await server.exited).signal).toBe('SIGKILL');
    });
    await stopServer(server);
    const integrityAtEnd = integrityOf(dataDir);
    console.log(
      `crash durability: killed after ${killAfter} ms (burst ${outcome.burstMs} ms); ` +
        `${describeAcked(outcome)}; integrity after kill: ${outcome.integrityAfterStop}, ` +
        `at end: ${integrityAtEnd}; restart ${outcome.restartMs} ms`,
    );
    expect(ackedCount(outcome)).toBeGreaterThan(0);
    expect(outcome.lost).toBe(0);
    expect(outcome.integrityAfterStop).toBe('ok');
    expect(integrityAtEnd).toBe('ok');
  }, 90_000);
});

describe('SIGTERM during a burst of writes', () => {
  it('exits 0 within 10 s, keeps every acknowledged write, and leaves no WAL behind', async () => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      server = await startServer(dataDir); // the kill -9 test ended with it stopped
      await listed(httpApi(server.base, await signInAgain(server.base)));
    }
    const termAfter = 1000 + Math.floor(Math.random() * 1000);
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let stopMs = NaN;
    let walBytes = 0;
    let stopLog = '';
    const outcome = await burstThenRestart(async () => {
      await sleep(termAfter);
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      exit = await server.exited;
      stopMs = Date.now() - signalled;
      stopLog = server.output();
      const wal = join(dataDir, 'berth.db-wal');
      walBytes = existsSync(wal) ? statSync(wal).size : 0;
    });
    await stopServer(server);
    console.log(
      `graceful stop: SIGTERM after ${termAfter} ms; exit ${exit?.code} in ${stopMs} ms; ` +
        `${describeAcked(outcome)}; WAL after the stop ${walBytes} bytes; ` +
        `integrity ${outcome.integrityAfterStop}; restart ${outcome.restartMs} ms`,
    );
    expect(exit, stopLog).toEqual({ code: 0, signal: null });
    expect(stopMs).toBeLessThan(10_000);
    expect(ackedCount(outcome)).toBeGreaterThan(0);
    expect(outcome.lost).toBe(0);
    expect(walBytes).toBe(0);
    expect(outcome.integrityAfterStop).toBe('ok');
  }, 90_000);
});
