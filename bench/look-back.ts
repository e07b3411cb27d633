// bench/look-back: what a look-back alert rule costs. 300 running containers on 50 hosts with
// 24 h of 10 s points; one rule's window mean read for every container and for every host, at
// 5 min, 30 min and 24 h windows: the whole read (one statement per series, a turn for other
// work every 10 ms) and the longest the event loop was held meanwhile. The engine reads a
// rule's window every 10 s, a long one every 180th of it. Prints each figure; asserts nothing.
// Run after `npm run build -w @berth/contracts -w @berth/server`:
//   node bench/look-back.ts [containers=300] [hosts=50] [runs=20]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { f1, machineSpeedMs, pct } from './figures.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dist = (path: string) => join(ROOT, 'packages/server/dist', path);
const { openDatabase, migrateToLatest } = (await import(
  dist('db/database.js')
)) as typeof import('../packages/server/src/db/database.ts');
const { createMetricsHistoryStore, createWindowMeans } = (await import(
  dist('modules/metrics-history/index.js')
)) as typeof import('../packages/server/src/modules/metrics-history/index.ts');

const [CONTAINERS = 300, HOSTS = 50, RUNS = 20] = process.argv.slice(2).map(Number);
const DAY = 86_400;
const NOW = Math.floor(Date.now() / 1000 / 10) * 10;

const dir = mkdtempSync(join(tmpdir(), 'berth-look-back-'));
const db = openDatabase(dir);
try {
  await migrateToLatest(db);
  const store = createMetricsHistoryStore(db);
  const hostIds = Array.from({ length: HOSTS }, (_, h) => `host-${h}`);
  const series: number[] = []; // through the store, as the history makes them
  for (const [h, hostId] of hostIds.entries()) {
    series.push(await store.seriesId(hostId, '', null));
    for (let c = h; c < CONTAINERS; c += HOSTS)
      series.push(await store.seriesId(hostId, `c-${c}`, `id-${c}`));
  }
  // Seeded in one statement (the write path's cost is bench/history's); figures vary by series.
  const started = performance.now();
  await sql`WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ${DAY / 10 - 1})
    INSERT INTO metric_points (tier, series_id, t, n, cpu, mem_pct, restarts, health)
    SELECT 0, s.id, ${NOW - DAY} + k.i * 10, 5, (s.id * 37 + k.i) % 10000,
      (s.id * 53 + k.i) % 10000, 0, 1
    FROM metric_series s, k`.execute(db);
  console.log(
    `seeded ${series.length} series × ${DAY / 10} points (24 h of 10 s) in ${f1((performance.now() - started) / 1000)} s`,
  );
  const means = createWindowMeans(db);
  console.log(`machine speed: ${f1(machineSpeedMs())} ms (see bench/figures.ts)`);
  for (const windowS of [300, 1800, DAY]) {
    for (const scope of ['container', 'host'] as const) {
      const times: number[] = [];
      let answered = 0;
      // The longest the event loop waited while the reads ran: the longest hold.
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      for (let r = 0; r < RUNS; r++) {
        const t0 = performance.now();
        const rows = await means({ gauge: 'cpu', scope, hostIds, from: NOW - windowS, to: NOW });
        times.push(performance.now() - t0);
        answered = rows.length;
      }
      delay.disable();
      console.log(
        `${scope} rule, ${windowS / 60} min window: ${answered} subjects, whole read p50 ${f1(pct(times, 50))} ms, p95 ${f1(pct(times, 95))} ms, longest event-loop hold ${f1(delay.max / 1e6)} ms`,
      );
    }
  }
} finally {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
}
