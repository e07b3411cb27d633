// bench/backup: `berth backup` of a database with a million events while the server serves a
// load of API requests. Prints the backup's time and size and the requests' latency during it
// beside the same load without a backup (target: longest request < 100 ms). Asserts nothing.
// Each backup's figures are followed by the same load's for as long again without one.
// Run after `npm run build -w @berth/server`: node bench/backup.ts [events=1000000] [data-dir]
// A data-dir is kept: seeded on the first run, reused as it is by the next ones.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startBerth, timeAnswer, type BerthProcess } from './berth-process.ts';
import { f1, machineSpeedMs, pct } from './figures.ts';
import { openMigratedDatabase, seedEvents } from './seed-events.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dist = (path: string) => join(ROOT, 'packages/server/dist', path);
const SQLite = createRequire(dist('main.js'))('better-sqlite3') as typeof import('better-sqlite3');
const COUNT = Number(process.argv[2] ?? 1_000_000);
const PORT = 18_830;
/** Clients sending requests back to back, as a few open dashboards and scripts would. */
const CLIENTS = 4;

const work = mkdtempSync(join(tmpdir(), 'berth-bench-backup-'));
const keptDir = process.argv[3];
const dataDir = keptDir === undefined ? join(work, 'data') : resolve(keptDir);

async function seed(): Promise<void> {
  const { db, events } = await openMigratedDatabase(dataDir);
  // Spread over 58 days, inside the default retention: the server prunes nothing meanwhile.
  const spacing = Math.floor((58 * 86_400_000) / COUNT);
  const now = Date.now();
  const started = performance.now();
  await seedEvents({
    file: join(dataDir, 'berth.db'),
    count: COUNT,
    row: (i) => ({
      timestamp: new Date(now - (COUNT - i) * spacing).toISOString(),
      severity: i % 5 === 4 ? 'error' : 'info',
      category: 'container',
      event_type: i % 2 === 0 ? 'started' : 'died',
      title: `Container ${i % 2 === 0 ? 'Started' : 'Died'}: app-${i % 2000}`,
      message: i % 2 === 0 ? null : `Exit code ${i % 7}`,
      host_id: `host-${i % 20}`,
      host_name: `node-${i % 20}`,
      container_name: `app-${i % 2000}`,
    }),
    rollIndexIfFull: () => events.rollIndexIfFull(),
  });
  await events.close();
  await db.destroy();
  console.log(`seeded ${COUNT} events in ${f1((performance.now() - started) / 1000)} s`);
}

interface Sample {
  path: string;
  status: number;
  start: number;
  end: number;
}

const READS = ['/hosts', '/events?limit=50', '/alerts', '/settings', '/health'];
/**
 * The events page counts a million rows on the server's main thread (~0.1-0.4 s a call here,
 * backup or not): a request that arrives meanwhile waits behind it. The light load leaves it
 * out, so what the backup itself costs the other requests shows.
 */
const LOADS = {
  'API load': READS,
  'API load without the events page': READS.filter((p) => !p.startsWith('/events')),
};

/** Requests back to back from CLIENTS clients until stopped: reads, and a settings write. */
function load(berth: BerthProcess, paths: string[]) {
  const samples: Sample[] = [];
  const stop = new AbortController();
  const client = async (c: number) => {
    for (let n = 0; !stop.signal.aborted; n++) {
      const start = performance.now();
      const write = c === 0 && n % 5 === 0;
      const path = write ? 'PUT /settings' : (paths[(n + c) % paths.length] ?? '/health');
      const status = write
        ? (await berth.api('/settings', { alert_template: `template ${n}` }, 'PUT')).res.status
        : (await timeAnswer(berth, path)).status;
      samples.push({ path, status, start, end: performance.now() });
    }
  };
  const running = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  return {
    samples,
    stop: async () => {
      stop.abort();
      await running;
    },
  };
}

/** Runs the built `berth backup` to its end; answers its wall time and output. */
function runBackup(file: string, extra: string[] = []) {
  return new Promise<{ ms: number; output: string; code: number | null }>((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, [dist('cli/berth.js'), 'backup', file, ...extra], {
      env: { ...process.env, BERTH_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('close', (code) => done({ ms: performance.now() - started, output, code }));
  });
}

const PATHS = ['/hosts', '/alerts', '/settings', '/health', 'PUT /settings', '/events?limit=50'];
/** p50, p99 and the longest request, over all requests but the events page, and per path. */
function describe(label: string, samples: Sample[]): void {
  const stats = (of: Sample[]) => {
    const ms = of.map((s) => s.end - s.start);
    return `${String(ms.length).padStart(5)} requests  p50 ${f1(pct(ms, 50)).padStart(6)}  p99 ${f1(pct(ms, 99)).padStart(7)}  longest ${f1(Math.max(...ms)).padStart(7)} ms`;
  };
  const failed = samples.filter((s) => s.status !== 200).length;
  console.log(failed === 0 ? label : `${label} (${failed} requests failed)`);
  console.log(`  ${'all requests'.padEnd(24)}${stats(samples)}`);
  console.log(
    `  ${'all but the events page'.padEnd(24)}${stats(samples.filter((s) => !s.path.startsWith('/events')))}`,
  );
  for (const path of PATHS) {
    const of = samples.filter((s) => s.path === path);
    if (of.length > 0) console.log(`  ${path.padEnd(24)}${stats(of)}`);
  }
}

if (!existsSync(join(dataDir, 'berth.db'))) await seed();
// A kept database's admin changed its password on the last run: the server makes a new one.
const sqlite = new SQLite(join(dataDir, 'berth.db'));
sqlite.exec('delete from sessions; delete from users');
sqlite.close();
const dbBytes = statSync(join(dataDir, 'berth.db')).size;
console.log(`database ${f1(dbBytes / 1024 / 1024)} MB; machine speed ${f1(machineSpeedMs())} ms`);
const berth = await startBerth(PORT, { BERTH_DATA_DIR: dataDir });
try {
  const passphrase = join(work, 'passphrase');
  writeFileSync(passphrase, 'bench passphrase\n');
  const encrypt = ['--passphrase-file', passphrase];
  for (const [name, extra, loadName] of [
    ['plain', [], 'API load'],
    ['plain', [], 'API load without the events page'],
    ['encrypted', encrypt, 'API load'],
  ] as const) {
    const paths = LOADS[loadName];
    const file = join(work, `${name}.tar`);
    const during = load(berth, paths);
    const t0 = performance.now();
    const result = await runBackup(file, [...extra]);
    const t1 = performance.now();
    await during.stop();
    if (result.code !== 0) throw new Error(`backup failed: ${result.output}`);
    // Every request that was in flight at some moment of the backup.
    const overlapping = during.samples.filter((s) => s.end >= t0 && s.start <= t1);
    const size = statSync(file).size;
    console.log(
      `backup (${name}) under the ${loadName}: ${f1(result.ms / 1000)} s, archive ` +
        `${f1(size / 1024 / 1024)} MB (${f1((100 * size) / dbBytes)} % of the database)`,
    );
    describe('  during it', overlapping);
    // The same load for as long again without a backup: this machine's neighbours make their
    // own pauses, and a longer window catches more of them.
    const after = load(berth, paths);
    await new Promise((r) => setTimeout(r, t1 - t0));
    await after.stop();
    describe('  then as long without a backup', after.samples);
    rmSync(file, { force: true });
  }
} finally {
  berth.stop();
  rmSync(work, { recursive: true, force: true });
}
