// bench/health: what 1,000 enabled HTTP health checks at a 10 s interval cost Berth.
// One synthetic engine with 1,000 running containers; four loopback HTTP servers answer the
// checks (in this process, so their work is not counted as Berth's). Berth runs twice on the
// same data directory: once without checks (baseline), once with 1,000 checks inserted into
// its database while it was stopped (the checker spreads them when it starts).
// Needs a build (`npm run build`). Prints figures; asserts nothing.
// With `distinct`, each check calls its own loopback address (127.0.x.y), so no connection is
// ever shared: the case of a thousand different services.
// Usage: node bench/health.ts [checks=1000] [windowSeconds=60] [distinct]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startBerth, type BerthProcess } from './berth-process.ts';
import { startFakeEngine } from './fake-engine.ts';
import { f1, pct } from './rig.ts';

const CHECKS = Number(process.argv[2] ?? 1000);
const WINDOW_S = Number(process.argv[3] ?? 60);
const DISTINCT = process.argv[4] === 'distinct';
const INTERVAL_S = 10;
const PORT = 18_800;
const ENGINE_PORT = 19_400;
const SERVER_PORTS = [19_410, 19_411, 19_412, 19_413];
const TICKS = 100; // clock ticks per second (/proc stat)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Arrival times (ms, performance clock) of each check, by container index. */
const arrivals = new Map<number, number[]>();
let recording = false;
const servers: Server[] = await Promise.all(
  SERVER_PORTS.map(
    (port) =>
      new Promise<Server>((resolve) => {
        const s = createServer((req, res) => {
          const i = Number(req.url?.split('/').at(-1));
          if (recording) {
            const list = arrivals.get(i) ?? [];
            list.push(performance.now());
            arrivals.set(i, list);
          }
          res.end('ok');
        });
        s.listen(port, DISTINCT ? '0.0.0.0' : '127.0.0.1', () => resolve(s));
      }),
  ),
);
const engine = await startFakeEngine(ENGINE_PORT, CHECKS, 'hc');

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

/** CPU (% of one core) and RSS (MB, sampled each second) of Berth over the window. */
async function measure(berth: BerthProcess, seconds: number) {
  const pid = berth.child.pid ?? 0;
  const rss: number[] = [];
  const t0 = performance.now();
  const c0 = cpuTicks(pid);
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    rss.push(rssMb(pid));
  }
  const cpu = ((cpuTicks(pid) - c0) / TICKS / ((performance.now() - t0) / 1000)) * 100;
  return { cpu, rssMean: rss.reduce((a, b) => a + b, 0) / rss.length, rssMax: Math.max(...rss) };
}

async function signIn(base: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await sleep(100);
  }
  const res = await fetch(`${base}/api/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'bench-pass-2' }),
  });
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-health-'));
const env = { BERTH_DATA_DIR: dataDir, BERTH_STATS_SOURCE: 'api' };

// 1. Baseline: the host and its containers, no checks.
let berth = await startBerth(PORT, env);
// The monitor's stats pass over 1,000 containers is not what is measured here: slowest cadence.
await berth.api('/settings', { polling_interval: 600 }, 'PUT');
const host = (
  await berth.api('/hosts', { name: 'synthetic', url: `tcp://127.0.0.1:${ENGINE_PORT}` })
).body as { id: string };
for (let i = 0; i < 150; i++) {
  const { body } = await berth.api('/containers');
  if (Array.isArray(body) && body.length >= CHECKS) break;
  await sleep(200);
}
await sleep(5000);
const base = await measure(berth, Math.min(WINDOW_S, 30));
berth.child.kill('SIGTERM');
await new Promise((r) => berth.child.once('exit', r));

// 2. 1,000 checks written straight into the table (as saved configs would be).
const db = new Database(join(dataDir, 'berth.db'));
const insert = db.prepare(`insert into container_http_health_checks
  (host_id, container_name, enabled, url, method, expected_status_codes, timeout_seconds,
   check_interval_seconds, follow_redirects, verify_ssl, auto_restart_on_failure,
   failure_threshold, success_threshold, max_restart_attempts, restart_retry_delay_seconds,
   current_status, consecutive_successes, consecutive_failures, updated_at)
  values (?, ?, 1, ?, 'GET', '200', 5, ?, 1, 1, 0, 3, 1, 3, 120, 'unknown', 0, 0, ?)`);
db.transaction(() => {
  for (let i = 0; i < CHECKS; i++)
    insert.run(
      host.id,
      `hc-svc-${i}`,
      `http://${DISTINCT ? `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}` : '127.0.0.1'}:${SERVER_PORTS[i % SERVER_PORTS.length]}/health/${i}`,
      INTERVAL_S,
      new Date().toISOString(),
    );
})();
db.close();

// 3. Berth again, on the same data: the checker loads and spreads the checks.
berth = await startBerth(PORT, env);
const url = `http://127.0.0.1:${PORT}`;
const cookie = await signIn(url);
// Wait until the host's containers are listed again and every check has answered.
for (let i = 0; i < 600; i++) {
  const res = await fetch(`${url}/api/health-check-configs`, { headers: { cookie } });
  const now = (await res.json()) as Record<string, { current_status: string }>;
  const answered = Object.values(now).filter((c) => c.current_status !== 'unknown').length;
  if (answered >= CHECKS) break;
  await sleep(1000);
}
await sleep(5000); // past the start-up work
recording = true;
const withChecks = await measure(berth, WINDOW_S);
recording = false;
const configs = (await (
  await fetch(`${url}/api/health-check-configs`, { headers: { cookie } })
).json()) as Record<string, { current_status: string }>;
berth.child.kill('SIGTERM');
await new Promise((r) => berth.child.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
engine.close();
for (const s of servers) s.close();

// Spread: arrivals per 100 ms slot (folded onto one 10 s interval) and each check's period.
const all = [...arrivals.values()].flat().sort((a, b) => a - b);
const first = all[0] ?? 0;
const slots = new Array<number>(INTERVAL_S * 10).fill(0);
const perSecond = new Map<number, number>();
for (const t of all) {
  const slot = Math.floor(((t - first) % (INTERVAL_S * 1000)) / 100);
  slots[slot] = (slots[slot] ?? 0) + 1;
  const s = Math.floor((t - first) / 1000);
  perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
}
const fullSeconds = [...perSecond.entries()]
  .filter(([s]) => s > 0 && s < Math.floor((all.at(-1) ?? first) - first) / 1000 - 1)
  .map(([, n]) => n);
const periods: number[] = [];
for (const list of arrivals.values())
  for (let k = 1; k < list.length; k++) periods.push((list[k] ?? 0) - (list[k - 1] ?? 0));
periods.sort((a, b) => a - b);
const sortedSlots = [...slots].sort((a, b) => a - b);
const healthy = Object.values(configs).filter((c) => c.current_status === 'healthy').length;

console.log(
  `\nbench/health: ${CHECKS} enabled checks every ${INTERVAL_S} s, ${WINDOW_S} s window, ${DISTINCT ? 'each check its own address' : `${SERVER_PORTS.length} servers`}`,
);
console.log(`checks answered healthy: ${healthy} of ${Object.keys(configs).length}`);
console.log(
  `requests received: ${all.length} (${f1(all.length / WINDOW_S)}/s; expected ${f1(CHECKS / INTERVAL_S)}/s)`,
);
console.log(
  `Berth CPU, no checks:   ${f1(base.cpu)} % of one core, RSS ${f1(base.rssMean)} MB (max ${f1(base.rssMax)})`,
);
console.log(
  `Berth CPU, with checks: ${f1(withChecks.cpu)} % of one core, RSS ${f1(withChecks.rssMean)} MB (max ${f1(withChecks.rssMax)})`,
);
console.log(
  `checks' own cost:       ${f1(withChecks.cpu - base.cpu)} % of one core, ${f1(withChecks.rssMean - base.rssMean)} MB`,
);
console.log(
  `start times per second: min ${Math.min(...fullSeconds)}, median ${pct(
    fullSeconds.sort((a, b) => a - b),
    50,
  )}, max ${Math.max(...fullSeconds)}`,
);
console.log(
  `per 100 ms slot of the interval: min ${sortedSlots[0]}, median ${pct(sortedSlots, 50)}, max ${sortedSlots.at(-1)} (uniform would be ${f1(all.length / slots.length)})`,
);
console.log(
  `period between a check's runs: p1 ${f1(pct(periods, 1) / 1000)} s, p50 ${f1(pct(periods, 50) / 1000)} s, p99 ${f1(pct(periods, 99) / 1000)} s`,
);
