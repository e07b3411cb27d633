// bench/events: GET /api/events over a million stored events. Prints figures; asserts nothing.
// Run after `npm run build`: node bench/events.ts [events=1000000]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(join(ROOT, 'packages/server/package.json'));
const SQLite = require('better-sqlite3') as typeof import('better-sqlite3');
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
const db = new SQLite(join(dataDir, 'berth.db'));
const insert = db.prepare(
  `insert into events (timestamp, severity, category, event_type, title, message, host_id, host_name,
   container_id, container_name, old_state, new_state, triggered_by) values (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
);
const severities = ['info', 'info', 'info', 'warning', 'error'];
const started = Date.now();
const now = Date.now();
db.transaction(() => {
  for (let i = 0; i < COUNT; i++) {
    const host = i % 20;
    const container = i % 2000;
    insert.run(
      new Date(now - (COUNT - i) * 30_000).toISOString(),
      severities[i % 5],
      i % 50 === 0 ? 'host' : 'container',
      i % 2 === 0 ? 'started' : 'died',
      `Container ${i % 2 === 0 ? 'Started' : 'Died'}: app-${container}`,
      i % 2 === 0 ? null : `Exit code ${i % 7}`,
      `host-${host}`,
      `node-${host}`,
      `host-${host}:${String(container).padStart(12, '0')}`,
      `app-${container}`,
      'running',
      'exited',
      'engine',
    );
  }
})();
db.close();
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

const queries: [string, string][] = [
  ['newest page (log default: last 24 h)', 'hours=24&limit=20'],
  ['newest page, all time', 'limit=20'],
  ['one host, all time', 'host_id=host-7&limit=20'],
  ['one container', 'container_id=host-3:000000000123&limit=200'],
  ['severity error, 7 days', 'severity=error&hours=168&limit=20'],
  ['category host + page 50', 'category=host&limit=20&offset=1000'],
  ['text search, 24 h', 'search=app-42&hours=24&limit=20'],
  [
    'regex search, 24 h',
    `search=${encodeURIComponent('^Container Died: app-1\\d$')}&hours=24&limit=20`,
  ],
  ['text search, all time', 'search=app-42&limit=20'],
];
for (const [name, qs] of queries) {
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const res = await fetch(`${BASE}/api/events?${qs}`, { headers: { cookie } });
    total = ((await res.json()) as { total_count: number }).total_count;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(40)} median ${times[3]?.toFixed(1)} ms  max ${times[6]?.toFixed(1)} ms  (${total} matching)`,
  );
}
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
