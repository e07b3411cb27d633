// bench/events: GET /api/events over a million stored events. Prints figures; asserts nothing.
// Run after `npm run build -w @berth/server`: node bench/events.ts [events=1000000]
// Prints p95 per query and the worst /api/health latency while each query repeats.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { seedEvents } from './seed-events.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dist = (path: string) => join(ROOT, 'packages/server/dist', path);
const { openDatabase } = (await import(
  dist('db/database.js')
)) as typeof import('../packages/server/src/db/database.ts');
const { createEventsStore, EventsService } = (await import(
  dist('modules/events/index.js')
)) as typeof import('../packages/server/src/modules/events/index.ts');
const COUNT = Number(process.argv[2] ?? 1_000_000);
const PORT = 18_800;
const BASE = `http://127.0.0.1:${PORT}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-events-'));
const env = {
  ...process.env,
  BERTH_PORT: String(PORT),
  BERTH_HOST: '127.0.0.1',
  BERTH_DATA_DIR: dataDir,
  BERTH_ADMIN_PASSWORD: 'bench-pass-1',
  BERTH_LOG_LEVEL: 'warn',
  BERTH_LOCAL_SOCKET: 'none',
};

async function startServer() {
  const child = spawn(process.execPath, [join(ROOT, 'packages/server/dist/main.js')], {
    env,
    stdio: 'inherit',
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return child;
    } catch {
      await sleep(50);
    }
  }
  throw new Error('server did not start');
}

// First start creates the schema; then fill it directly, as a year of a busy fleet would.
let server = await startServer();
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
const db = openDatabase(dataDir);
const events = new EventsService(createEventsStore(db), { publish: () => undefined } as never);
const severities = ['info', 'info', 'info', 'warning', 'error'];
// Spread over 58 days, inside the default 60-day retention: the server prunes nothing while
// it is measured (bench/retention measures pruning a backlog).
const SPACING_MS = Math.floor((58 * 86_400_000) / COUNT);
const started = Date.now();
const now = Date.now();
await seedEvents({
  file: join(dataDir, 'berth.db'),
  count: COUNT,
  row: (i) => {
    const host = i % 20;
    const container = i % 2000;
    return {
      timestamp: new Date(now - (COUNT - i) * SPACING_MS).toISOString(),
      severity: severities[i % 5],
      category: i % 50 === 0 ? 'host' : 'container',
      event_type: i % 2 === 0 ? 'started' : 'died',
      title: `Container ${i % 2 === 0 ? 'Started' : 'Died'}: app-${container}`,
      message: i % 2 === 0 ? null : `Exit code ${i % 7}`,
      host_id: `host-${host}`,
      host_name: `node-${host}`,
      container_id: `host-${host}:${String(container).padStart(12, '0')}`,
      container_name: `app-${container}`,
      old_state: 'running',
      new_state: 'exited',
      triggered_by: 'engine',
    };
  },
  rollIndexIfFull: () => events.rollIndexIfFull(),
});
await events.close();
await db.destroy();
console.log(`inserted ${COUNT} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);

server = await startServer();
const login = await fetch(`${BASE}/api/v2/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'admin', password: 'bench-pass-1' }),
});
const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
await fetch(`${BASE}/api/v2/auth/change-password`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie },
  body: JSON.stringify({ current_password: 'bench-pass-1', new_password: 'bench-pass-2' }),
});

/** Polls /api/health every ~20 ms until stopped; answers the worst latency seen. */
function healthWatch() {
  let worst = 0;
  const state = { running: true };
  const loop = (async () => {
    while (state.running) {
      const t0 = performance.now();
      await fetch(`${BASE}/api/health`).then((r) => r.arrayBuffer());
      worst = Math.max(worst, performance.now() - t0);
      await sleep(20);
    }
  })();
  return async () => {
    state.running = false;
    await loop;
    return worst;
  };
}

const re = (pattern: string) => `search=${encodeURIComponent(pattern)}`;
const queries: [string, string][] = [
  ['page: newest, last 24 h', 'hours=24&limit=20'],
  ['page: newest, all time', 'limit=20'],
  ['page: one host, all time', 'host_id=host-7&limit=20'],
  ['page: severity error, 7 days', 'severity=error&hours=168&limit=20'],
  ['page: category host, offset 1000', 'category=host&limit=20&offset=1000'],
  ['text: app-42, all time', 'search=app-42&limit=20'],
  ['text: "exit code 3", all time', `${re('exit code 3')}&limit=20`],
  ['text: node-1 (host name), 24 h', 'search=node-1&hours=24&limit=20'],
  ['text: 2 chars, 24 h (no index)', 'search=-4&hours=24&limit=20'],
  ['regex: literal, 24 h', `${re('^Container Died: app-1\\d$')}&hours=24&limit=20`],
  ['regex: literal, all time', `${re('^Container Died: app-1\\d$')}&limit=20`],
  ['regex: ^(.|.)*x{18}$, all time', `${re('^(.|.)*x{18}$')}&limit=20`],
  ['regex: no literal, 7 days', `${re('^\\w+ d[a-z]+: [a-z]+-19\\d\\d$')}&hours=168&limit=20`],
  ['regex: no literal, all time', `${re('^\\w+ d[a-z]+: [a-z]+-19\\d\\d$')}&limit=20`],
];
const RUNS = 20;
for (const [name, qs] of queries) {
  const times: number[] = [];
  let outcome = '';
  const stop = healthWatch();
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${BASE}/api/events?${qs}`, { headers: { cookie } });
    const body = (await res.json()) as { total_count?: number; detail?: string };
    times.push(performance.now() - t0);
    outcome = res.ok ? `${body.total_count} matching` : `${res.status} ${body.detail}`;
  }
  const worstHealth = await stop();
  times.sort((a, b) => a - b);
  const p95 = times[Math.ceil(RUNS * 0.95) - 1] ?? NaN;
  console.log(
    `${name.padEnd(36)} p95 ${p95.toFixed(1).padStart(7)} ms  max ${times[RUNS - 1]?.toFixed(1).padStart(7)} ms  health worst ${worstHealth.toFixed(1).padStart(6)} ms  (${outcome})`,
  );
}
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
