// bench/alerts: the alert engine at scale. 100 rules (mixed kinds, tag selectors) over the
// rig's containers (default 1,000, 300 running) at the 2 s polling cadence. Prints the
// evaluator's CPU (Berth's process CPU with and without the rules, a browser connected in
// both), p95 from a `docker kill` to the alert's live message (container_stopped), and
// GET /api/alerts/ p95 with 100,000 alerts stored. Prints figures; asserts nothing.
// Needs the rig and a build (`npm run build`). Usage:
//   node bench/alerts.ts [total=1000] [running=300] [alerts=100000] [--keep]
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startBerth } from './berth-process.ts';
import {
  docker,
  ensureBenchContainers,
  f1,
  inParallel,
  pct,
  removeBenchContainers,
  rig,
} from './rig.ts';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(join(ROOT, 'packages/server/package.json'));
const SQLite = require('better-sqlite3') as typeof import('better-sqlite3');
const WebSocket = require('ws') as typeof import('ws').default;

const TOTAL = Number(process.argv[2] ?? 1000);
const RUNNING = Number(process.argv[3] ?? 300);
const ALERTS = Number(process.argv[4] ?? 100_000);
const PORT = 18_740;
const CPU_WINDOW_S = 40;
const KILLS = 20;
const TICK_HZ = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Listed {
  id: string;
  host_id: string;
  name: string;
  state: string;
}

function cpuSeconds(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK_HZ;
}
async function cpuPercent(pid: number, seconds: number): Promise<number> {
  const before = cpuSeconds(pid);
  await sleep(seconds * 1000);
  return ((cpuSeconds(pid) - before) / seconds) * 100;
}

// 1. Containers spread over the engines: running, created and exited.
const t0 = Date.now();
const n = rig.engines.length;
await Promise.all(
  rig.engines.map(async (e, i) => {
    const share = (x: number) => Math.floor(x / n) + (i < x % n ? 1 : 0);
    const stopped = share(TOTAL - RUNNING);
    await ensureBenchContainers(e, share(RUNNING), 'running');
    await ensureBenchContainers(e, Math.ceil(stopped * 0.8), 'created');
    await ensureBenchContainers(e, stopped - Math.ceil(stopped * 0.8), 'exited');
  }),
);
console.log(`bench/alerts: containers ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-alerts-'));
const berth = await startBerth(PORT, { BERTH_DATA_DIR: dataDir });
const hostIds: Record<string, string> = {};
for (const e of rig.engines) {
  const tls = e.tls
    ? {
        tls_ca: readFileSync(e.tls.ca, 'utf8'),
        tls_cert: readFileSync(e.tls.cert, 'utf8'),
        tls_key: readFileSync(e.tls.key, 'utf8'),
      }
    : {};
  const { body } = await berth.api('/hosts', {
    name: `bench-${e.name}`,
    url: e.url,
    tags: [`env-${e.name}`],
    ...tls,
  });
  hostIds[(body as { id: string }).id] = e.name;
}
let listed: Listed[] = [];
for (let i = 0; i < 300 && listed.length < TOTAL; i++) {
  const { body } = await berth.api('/containers');
  listed = Array.isArray(body) ? (body as Listed[]) : [];
  if (listed.length < TOTAL) await sleep(500);
}
console.log(
  `bench/alerts: ${listed.length} containers listed, ${listed.filter((c) => c.state === 'running').length} running`,
);

// Tags for the selectors: ten groups, round robin.
await inParallel(
  listed.map(
    (c, i) => () =>
      berth.api(
        `/hosts/${c.host_id}/containers/${c.id}/tags`,
        { tags_to_add: [`grp-${i % 10}`] },
        'PATCH',
      ),
  ),
  8,
);

// A browser stand-in in both phases: the cadence is the polling interval either way.
const socket = new WebSocket(`ws://127.0.0.1:${PORT}/ws/?protocol=2`, {
  headers: { cookie: berth.cookie },
});
const raisedAt = new Map<string, number>();
socket.on('message', (raw: Buffer) => {
  const m = JSON.parse(raw.toString()) as {
    type: string;
    data?: { alert?: { container_name: string | null } };
  };
  if (m.type === 'alert_raised' && m.data?.alert?.container_name)
    raisedAt.set(m.data.alert.container_name, Date.now());
});
await new Promise((r) => socket.once('open', r));
const pid = berth.child.pid ?? 0;
await sleep(5000);
const without = await cpuPercent(pid, CPU_WINDOW_S);
const load = (what: string) => `${what} ${loadavg()[0]?.toFixed(1) ?? '?'}`;
const loads = [load('cpu')];

// 2. 100 rules: mixed kinds, most with tag selectors, quiet thresholds (nothing is wrong).
const rules: object[] = [];
const grp = (i: number) => ({ tags: [`grp-${i % 10}`] });
for (let i = 0; i < 30; i++)
  rules.push({
    kind: 'cpu_high',
    scope: 'container',
    threshold: 95,
    duration_seconds: 60,
    container_selector_json: grp(i),
  });
for (let i = 0; i < 20; i++)
  rules.push({
    kind: 'memory_high',
    scope: 'container',
    threshold: 95,
    duration_seconds: 60,
    container_selector_json: grp(i),
  });
for (let i = 0; i < 10; i++)
  rules.push({
    kind: 'container_stopped',
    scope: 'container',
    container_selector_json: i === 0 ? { include_all: true } : grp(i),
  });
for (let i = 0; i < 10; i++)
  rules.push({ kind: 'container_restart', scope: 'container', container_selector_json: grp(i) });
for (let i = 0; i < 10; i++)
  rules.push({ kind: 'container_unhealthy', scope: 'container', container_selector_json: grp(i) });
for (let i = 0; i < 5; i++)
  rules.push({
    kind: 'cpu_high',
    scope: 'host',
    threshold: 95,
    duration_seconds: 60,
    host_selector_json: { tags: ['env-plain', 'env-tls'] },
  });
for (let i = 0; i < 5; i++)
  rules.push({
    kind: 'memory_high',
    scope: 'host',
    threshold: 95,
    duration_seconds: 60,
    host_selector_json: { include_all: true },
  });
for (let i = 0; i < 5; i++)
  rules.push({ kind: 'host_down', scope: 'host', host_selector_json: { include_all: true } });
for (let i = 0; i < 5; i++)
  rules.push({
    kind: 'disk_low',
    scope: 'host',
    threshold: 99,
    duration_seconds: 60,
    host_selector_json: { include_all: true },
  });
for (const [i, r] of rules.entries()) {
  const { res, body } = await berth.api('/alerts/rules', {
    name: `bench rule ${i}`,
    severity: 'warning',
    ...r,
  });
  if (!res.ok) throw new Error(`rule ${i}: ${JSON.stringify(body)}`);
}
await sleep(5000);
const withRules = await cpuPercent(pid, CPU_WINDOW_S);
loads.push(load('rules'));

// 3. docker kill → the alert's live message (container_stopped, include_all rule).
const running = listed.filter((c) => c.state === 'running');
const victims = Array.from(
  { length: KILLS },
  (_, i) => running[Math.floor((i * running.length) / KILLS)],
).filter((c): c is Listed => c !== undefined);
const latencies: number[] = [];
for (const c of victims) {
  const engine = rig.engines.find((e) => e.name === hostIds[c.host_id]);
  if (engine === undefined) continue;
  const start = Date.now();
  await docker(engine, ['kill', c.name]);
  for (let i = 0; i < 500 && !raisedAt.has(c.name); i++) await sleep(10);
  const at = raisedAt.get(c.name);
  if (at !== undefined) latencies.push(at - start);
  await sleep(300);
}
loads.push(load('kills'));
for (const c of victims) {
  const engine = rig.engines.find((e) => e.name === hostIds[c.host_id]);
  if (engine !== undefined) await docker(engine, ['start', c.name]);
}

// 4. GET /api/alerts/ with 100,000 alerts stored (written straight into SQLite).
const db = new SQLite(join(dataDir, 'berth.db'));
const existing = db.prepare('select count(*) as n from alerts').get() as { n: number };
const insert =
  db.prepare(`insert into alerts (id, title, message, kind, state, severity, scope_type, scope_id,
  host_id, host_name, container_name, rule_id, first_seen, last_seen, current_value, threshold, snoozed_until,
  resolved_at, resolved_reason, dedup_key, rule_name, notified_at, occurrences)
  values (?, ?, ?, 'container_stopped', ?, ?, 'container', ?, ?, 'bench', ?, null, ?, ?, null, null, null, ?, ?, null, 'seeded', null, 1)`);
const severities = ['critical', 'error', 'warning', 'info'];
const base = Date.now() - ALERTS * 60_000;
db.transaction(() => {
  for (let i = 0; i < ALERTS - existing.n; i++) {
    const at = new Date(base + i * 60_000).toISOString();
    const open = i % 50 === 0;
    insert.run(
      randomUUID(),
      `seeded ${i}`,
      'Container stopped unexpectedly',
      open ? 'open' : 'resolved',
      severities[i % 4],
      `h${i % 7}:c${i % 1000}`,
      `h${i % 7}`,
      `c${i % 1000}`,
      at,
      at,
      open ? null : at,
      open ? null : 'Condition cleared',
    );
  }
})();
// The seeding went through another connection: checkpoint its WAL now (without locking
// Berth's writers out), or the first reads pay for the bench's own bulk insert.
db.pragma('wal_checkpoint(PASSIVE)');
db.close();
const timed = async (path: string) => {
  const xs: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    const res = await fetch(`${berth.base}/api${path}`, { headers: { cookie: berth.cookie } });
    await res.arrayBuffer();
    xs.push(performance.now() - start);
  }
  return pct(xs, 95);
};
const healthP95 = await timed('/health');
const listP95 = await timed('/alerts/?page=1&page_size=20');
const openP95 = await timed('/alerts/?state=open&page_size=500');
const deepP95 = await timed('/alerts/?severity=warning&page=200&page_size=20');
const statsP95 = await timed('/alerts/stats/');
loads.push(load('requests'));

socket.close();
berth.stop();
if (!process.argv.includes('--keep')) await removeBenchContainers();

console.log(
  `bench/alerts: ${listed.length} containers (${running.length} running), ${rules.length} rules, polling 2 s, node ${process.version}`,
);
console.log(`  load average (1 min) after each phase: ${loads.join(', ')}`);
console.log(`  Berth CPU without rules          ${f1(without)} % of a core`);
console.log(`  Berth CPU with 100 rules         ${f1(withRules)} % of a core`);
console.log(
  `  evaluator CPU (difference)       ${f1(withRules - without)} % of a core   (target < 3 %)`,
);
console.log(
  `  docker kill → alert_raised p95   ${f1(pct(latencies, 95))} ms (median ${f1(pct(latencies, 50))}, ${latencies.length}/${victims.length} seen)   (target < 1000 ms)`,
);
console.log(
  `  GET /api/alerts/ p95, ${ALERTS} alerts: first page ${f1(listP95)} ms, open (500) ${f1(openP95)} ms, page 200 by severity ${f1(deepP95)} ms, stats ${f1(statsP95)} ms   (target < 30 ms)`,
);
console.log(
  `  GET /api/health p95 on the same server ${f1(healthP95)} ms   (the floor: session, routing, the event loop's other work)`,
);
process.exit(0);
