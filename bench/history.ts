// bench/history: the metrics history of 1,000 containers (300 running) on 50 hosts over a
// simulated 30 days, with time mocked: database growth per container per day at each tier and
// in total, write cost at the live cadence, queries (30 days of one container, 24 h of 50
// hosts' cards) and the longest step of the roll-ups and retention. Prints each against its
// target; asserts nothing.
// Run after `npm run build -w @berth/contracts -w @berth/server`:
//   node bench/history.ts [containers=1000] [running=300] [hosts=50] [days=30]
// The last 26 simulated hours go through the whole write path (monitor pass → sampler → batch
// write → roll-ups → retention, a maintenance round per simulated minute), at the idle 10 s
// cadence and, for the last hour, at the live 2 s one. The days before are written straight
// into the 1 min (last 7 days) and 15 min tiers through the store, as rolled-up points, so the
// database and the queries see 30 days without simulating 250,000 passes.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import type { ContainerSnapshot } from '../packages/server/src/modules/monitor/index.ts';
import { f1, held, machineSpeedMs, pct } from './figures.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dist = (path: string) => join(ROOT, 'packages/server/dist', path);
const { openDatabase, migrateToLatest } = (await import(
  dist('db/database.js')
)) as typeof import('../packages/server/src/db/database.ts');
const { MetricsHistoryService, createMetricsHistoryStore } = (await import(
  dist('modules/metrics-history/index.js')
)) as typeof import('../packages/server/src/modules/metrics-history/index.ts');
type Row = Parameters<ReturnType<typeof createMetricsHistoryStore>['insertPoints']>[0][number];

const [CONTAINERS = 1000, RUNNING = 300, HOSTS = 50, DAYS = 30] = process.argv.slice(2).map(Number);
const FULL_HOURS = 26;
const LIVE_HOURS = 1;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

console.log(
  `machine speed ${f1(machineSpeedMs())} ms (shared, noisy VM: figures of runs at other speeds differ)`,
);
console.log(
  `${CONTAINERS} containers (${RUNNING} running) on ${HOSTS} hosts, ${DAYS} simulated days`,
);

// ---- a fake fleet: what the history reads of the monitor ----
interface Fake {
  id: string;
  name: string;
  running: boolean;
  rx: number;
  tx: number;
  br: number;
  bw: number;
  cpu: number;
  mem: number;
}
const hostIds = Array.from({ length: HOSTS }, (_, h) => `host-${String(h).padStart(2, '0')}`);
const byHost = new Map<string, Fake[]>(hostIds.map((h) => [h, []]));
for (let i = 0; i < CONTAINERS; i++) {
  const host = hostIds[i % HOSTS] as string;
  byHost.get(host)?.push({
    id: `c${String(i).padStart(11, '0')}`,
    name: `app-${i}`,
    running: i < RUNNING,
    rx: 0,
    tx: 0,
    br: 0,
    bw: 0,
    cpu: (i % 7) * 3,
    mem: 50e6 + i * 1e5,
  });
}
const snapshot = (hostId: string, c: Fake) =>
  ({
    id: c.id,
    fullId: c.id,
    name: c.name,
    state: c.running ? 'running' : 'exited',
    health: c.running ? 'healthy' : null,
    restartCount: 0,
    hostId,
    hostName: hostId,
  }) as unknown as ContainerSnapshot;
let listener: (() => void) | null = null;
const fleet = {
  hosts: () => hostIds.map((id) => ({ id, name: id, status: 'online' as const, error: null })),
  host: (id: string) => ({ id, name: id, status: 'online' as const, error: null }),
  containers: (hostId?: string) =>
    (byHost.get(hostId ?? '') ?? []).map((c) => snapshot(hostId ?? '', c)),
  container: (hostId: string, id: string) => {
    const c = byHost.get(hostId)?.find((x) => x.id === id);
    return c === undefined ? undefined : snapshot(hostId, c);
  },
  containerStats: (hostId: string, id: string) => {
    const c = byHost.get(hostId)?.find((x) => x.id === id);
    if (c === undefined || !c.running) return undefined;
    return {
      cpu_percent: c.cpu,
      memory_usage: c.mem,
      memory_limit: 1e9,
      memory_percent: c.mem / 1e7,
      network_rx: c.rx,
      network_tx: c.tx,
      net_bytes_per_sec: 0,
      block_read: c.br,
      block_write: c.bw,
    };
  },
  hostStats: (hostId: string) => {
    let cpu = 0;
    let mem = 0;
    for (const c of byHost.get(hostId) ?? [])
      if (c.running) {
        cpu += c.cpu;
        mem += c.mem;
      }
    return { cpu_percent: cpu / 8, mem_percent: mem / 1.6e8, mem_bytes: mem, net_bytes_per_sec: 0 };
  },
  engineDisk: () => Promise.resolve({ percent: 41.5, path: '/var/lib/docker' }),
  on: (_event: 'statsSampled', l: () => void) => {
    listener = l;
    return () => {
      listener = null;
    };
  },
};
/** One monitor pass: every running container's counters and figures move a little. */
function pass(): void {
  for (const list of byHost.values())
    for (const c of list)
      if (c.running) {
        c.rx += 1000 + Math.floor(Math.random() * 5000);
        c.tx += 500 + Math.floor(Math.random() * 2000);
        c.br += Math.floor(Math.random() * 4096);
        c.bw += 4096 + Math.floor(Math.random() * 65_536);
        c.cpu = Math.max(0, c.cpu + (Math.random() - 0.5) * 2);
        c.mem = Math.max(1e6, c.mem + (Math.random() - 0.5) * 1e6);
      }
  listener?.();
}

// ---- the history on a fresh database, its clock mocked ----
const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-history-'));
const db = openDatabase(dataDir);
await migrateToLatest(db);
const store = createMetricsHistoryStore(db);
const END = Math.floor(Date.now() / DAY) * DAY;
let now = END - DAYS * DAY;
const history = new MetricsHistoryService({
  store,
  fleet,
  log: {
    info: () => undefined,
    warn: (o, m) => console.warn(m, o),
    error: (o, m) => console.error(m, o),
  },
  now: () => now,
  mono: () => now,
  rest: () => new Promise((r) => setImmediate(r)),
});
history.start(); // subscribes; its own timer is not used here (unreferenced)

// ---- the days before: rolled-up points straight into the 1 min and 15 min tiers ----
const series: number[] = [];
for (const host of hostIds) {
  series.push(await store.seriesId(host, '', null));
  for (const c of byHost.get(host) ?? [])
    if (c.running) series.push(await store.seriesId(host, c.name, c.id));
}
const rolled = (tier: number, seriesId: number, t: number, n: number): Row => {
  const r = Math.random();
  const band = (mean: number): [number, number, number] => [
    Math.round(mean),
    Math.round(mean * 0.8),
    Math.round(mean * 1.3),
  ];
  const [cpu, cpuLo, cpuHi] = band(300 + r * 2000);
  const [mem, memLo, memHi] = band(60e6 + r * 40e6);
  const [memPct, memPctLo, memPctHi] = band(600 + r * 400);
  const [rx, rxLo, rxHi] = band(300 + r * 500);
  const [tx, txLo, txHi] = band(100 + r * 200);
  const [br, brLo, brHi] = band(r * 400);
  const [bw, bwLo, bwHi] = band(3000 + r * 6000);
  return {
    ...{ tier, series_id: seriesId, t, n, restarts: 0, health: 1 },
    ...{ cpu, cpu_lo: cpuLo, cpu_hi: cpuHi, mem, mem_lo: memLo, mem_hi: memHi },
    ...{ mem_pct: memPct, mem_pct_lo: memPctLo, mem_pct_hi: memPctHi },
    ...{ rx, rx_lo: rxLo, rx_hi: rxHi, tx, tx_lo: txLo, tx_hi: txHi },
    ...{ br, br_lo: brLo, br_hi: brHi, bw, bw_lo: bwLo, bw_hi: bwHi },
    ...{ disk: null, disk_lo: null, disk_hi: null },
  };
};
let started = performance.now();
const fullFrom = END - FULL_HOURS * HOUR;
const minuteFrom = Math.max(now, END - 7 * DAY);
for (let t = now; t < minuteFrom; t += 900_000)
  await store.insertPoints(series.map((id) => rolled(2, id, t / 1000, 90)));
for (let t = minuteFrom; t < fullFrom; t += 60_000)
  await store.insertPoints(series.map((id) => rolled(1, id, t / 1000, 6)));
await store.setDoneUntil(2, minuteFrom / 1000);
console.log(
  `backfilled days 1-${f1((fullFrom - now) / DAY)} in ${f1((performance.now() - started) / 1000)} s`,
);

// ---- the last 26 hours through the whole path ----
now = fullFrom;
const writeCpu = { idle: 0, idleS: 0, live: 0, liveS: 0 };
let longestStep = 0;
let longestKind = '';
const roundLongest: number[] = [];
const roundHeld: number[] = [];
let steps = 0;
let maintenanceRuns = 0;
let nextMaintenance = now;
started = performance.now();
while (now < END) {
  const live = now >= END - LIVE_HOURS * HOUR;
  const everyMs = live ? 2000 : 10_000;
  const cpu0 = process.cpuUsage();
  pass();
  await history.flush();
  const cpu = process.cpuUsage(cpu0);
  const used = (cpu.user + cpu.system) / 1000;
  if (live) {
    writeCpu.live += used;
    writeCpu.liveS += everyMs / 1000;
  } else {
    writeCpu.idle += used;
    writeCpu.idleS += everyMs / 1000;
  }
  if (now >= nextMaintenance) {
    const [report, heldMs] = await held(() => history.maintain());
    roundLongest.push(report.longestStepMs);
    roundHeld.push(heldMs);
    if (report.longestStepMs > longestStep) {
      longestStep = report.longestStepMs;
      longestKind = `${report.longestStep}, round at ${f1((now - fullFrom) / HOUR)} h`;
    }
    steps += report.steps;
    maintenanceRuns++;
    nextMaintenance += 60_000;
  }
  now += everyMs;
}
console.log(
  `${FULL_HOURS} h through the write path in ${f1((performance.now() - started) / 1000)} s ` +
    `(${maintenanceRuns} maintenance rounds, ${steps} steps)`,
);

// ---- sizes: each tier's rows copied alone into a scratch file measure its bytes ----
const pageSize = Number(
  (await sql<{ page_size: number }>`PRAGMA page_size`.execute(db)).rows[0]?.page_size,
);
const ddl = (
  await sql<{
    sql: string;
  }>`SELECT sql FROM sqlite_master WHERE name IN ('metric_points', 'metric_points_by_time') ORDER BY type DESC`.execute(
    db,
  )
).rows.map((r) => r.sql);
const tierBytes: { rows: number; bytes: number }[] = [];
for (const tier of [0, 1, 2]) {
  const file = join(dataDir, `tier-${tier}.db`);
  await sql`ATTACH DATABASE ${file} AS scratch`.execute(db);
  for (const statement of ddl)
    await sql
      .raw(statement.replace(/(TABLE|INDEX) (metric_points\w*)/, '$1 scratch.$2'))
      .execute(db);
  await sql
    .raw(`INSERT INTO scratch.metric_points SELECT * FROM main.metric_points WHERE tier = ${tier}`)
    .execute(db);
  const rows = Number(
    (await sql<{ n: number }>`SELECT COUNT(*) AS n FROM scratch.metric_points`.execute(db)).rows[0]
      ?.n,
  );
  const pages = Number(
    (await sql<{ page_count: number }>`PRAGMA scratch.page_count`.execute(db)).rows[0]?.page_count,
  );
  await sql`DETACH DATABASE scratch`.execute(db);
  tierBytes.push({ rows, bytes: pages * pageSize });
}
await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
const fileBytes = statSync(join(dataDir, 'berth.db')).size;
const free =
  Number(
    (await sql<{ freelist_count: number }>`PRAGMA freelist_count`.execute(db)).rows[0]
      ?.freelist_count,
  ) * pageSize;

const MB = 1024 ** 2;
const perSeriesPerDay = [8640, 1440, 96];
const keptDays = [1, 7, 90];
const names = ['10 s', '1 min', '15 min'];
let perContainer90 = 0;
console.log(
  '\ngrowth per running container per day, by tier (bytes per point incl. its index entry):',
);
tierBytes.forEach(({ rows, bytes }, tier) => {
  const perRow = bytes / Math.max(1, rows);
  const perDay = perRow * (perSeriesPerDay[tier] ?? 0);
  perContainer90 += perDay * (keptDays[tier] ?? 0);
  console.log(
    `  ${names[tier]}: ${f1(perRow)} B/point × ${perSeriesPerDay[tier]}/day = ${f1(perDay / 1024)} KiB/day, kept ${keptDays[tier]} d → ${f1((perDay * (keptDays[tier] ?? 0)) / MB)} MiB per container`,
  );
});
const seriesCount = (running: number) => running + HOSTS;
const total = (running: number) => perContainer90 * seriesCount(running);
console.log(
  `steady state with the default tiers (1 d, 7 d, 90 d): ${f1(perContainer90 / MB)} MiB per running container`,
);
console.log(
  `  ${RUNNING} running of ${CONTAINERS} (+${HOSTS} hosts): ${f1(total(RUNNING) / 1024 / MB)} GiB   target ≤ 2 GiB for 1,000 containers over 90 days`,
);
console.log(
  `  all ${CONTAINERS} running (+${HOSTS} hosts): ${f1(total(CONTAINERS) / 1024 / MB)} GiB   (stopped containers write no points)`,
);
console.log(
  `database file after ${DAYS} simulated days: ${f1(fileBytes / MB)} MiB (${f1(free / MB)} MiB free pages for reuse)`,
);

// ---- write cost ----
const share = (ms: number, s: number) => (ms / (s * 1000)) * 100;
console.log(
  `\nwrite cost, live 2 s cadence: ${share(writeCpu.live, writeCpu.liveS).toFixed(2)} % of a core   target < 1 % for ${RUNNING} running`,
);
console.log(
  `write cost, idle 10 s cadence: ${share(writeCpu.idle, writeCpu.idleS).toFixed(2)} % of a core (roll-ups and retention not included; below)`,
);

// ---- queries ----
const running = [...byHost.entries()].flatMap(([h, cs]) =>
  cs.filter((c) => c.running).map((c) => [h, c.name] as const),
);
const monthTimes: number[] = [];
let tierOfMonth = '';
for (let i = 0; i < 200; i++) {
  const [h, name] = running[(i * 37) % running.length] as readonly [string, string];
  const t0 = performance.now();
  const a = await history.query(h, name, {
    from: new Date(END - 30 * DAY).toISOString(),
    to: new Date(END).toISOString(),
  });
  monthTimes.push(performance.now() - t0);
  tierOfMonth = `${a.tier}, ${a.t.length} points of ${a.step} s`;
}
console.log(
  `\nquery 30 days of one container (${tierOfMonth}): p50 ${f1(pct(monthTimes, 50))} ms, p95 ${f1(pct(monthTimes, 95))} ms   target p95 < 50 ms`,
);
/** 24 h of every host, one query each (as 50 cards would ask), `step` as a card asks. */
async function cards(step: number | undefined, label: string): Promise<void> {
  const times: number[] = [];
  let shape = '';
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    for (const h of hostIds) {
      const a = await history.query(h, null, {
        from: new Date(END - DAY).toISOString(),
        to: new Date(END).toISOString(),
        ...(step === undefined ? {} : { step }),
      });
      shape = `${a.tier}, ${a.t.length} points each`;
    }
    times.push(performance.now() - t0);
  }
  console.log(
    `query 24 h of ${HOSTS} hosts' cards, ${label} (${shape}): p50 ${f1(pct(times, 50))} ms, p95 ${f1(pct(times, 95))} ms for all ${HOSTS}   target < 150 ms`,
  );
}
// A card's sparkline is ~300 px: 15 min points; the default answers a chart's 1 min ones.
await cards(900, 'step=900');
await cards(undefined, 'no step');

// ---- roll-ups and retention ----
console.log(
  `\nroll-up and retention steps: longest ${f1(longestStep)} ms (${longestKind}) of ${steps}   target < 50 ms`,
);
console.log(
  `  longest step per round (${roundLongest.length} rounds): p50 ${f1(pct(roundLongest, 50))} ms, p99 ${f1(pct(roundLongest, 99))} ms`,
);
console.log(
  `  longest gap of a 1 ms ticker during a round (any hold, the 1 ms included): p50 ${f1(pct(roundHeld, 50))} ms, p99 ${f1(pct(roundHeld, 99))} ms, max ${f1(Math.max(...roundHeld))} ms`,
);

await history.stop();
await db.destroy();
rmSync(dataDir, { recursive: true, force: true });
