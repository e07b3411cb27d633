// bench/history-checkpoint: where the long metrics history steps come from. 1,680 roll-up
// steps (10 s → 1 min, 50 series each) of 350 series over four simulated hours, each
// minute's 10 s points written first as the history writes them, with WAL checkpoints on
// Berth's worker thread (its setting since db/checkpointer.ts), inside the commits (SQLite's
// automatic checkpoint, Berth's setting before), or off. Prints the steps' p50, p99 and
// longest; asserts nothing. Run after `npm run build -w @berth/contracts -w @berth/server`:
//   node bench/history-checkpoint.ts worker
//   node bench/history-checkpoint.ts on
//   node bench/history-checkpoint.ts off
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { f1, pct } from './figures.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dist = (path: string) => join(ROOT, 'packages/server/dist', path);
const { openDatabase, migrateToLatest } = (await import(
  dist('db/database.js')
)) as typeof import('../packages/server/src/db/database.ts');
const { createMetricsHistoryStore } = (await import(
  dist('modules/metrics-history/index.js')
)) as typeof import('../packages/server/src/modules/metrics-history/index.ts');
type Row = Parameters<ReturnType<typeof createMetricsHistoryStore>['insertPoints']>[0][number];

const asked = process.argv[2];
const mode = asked === 'off' || asked === 'worker' ? asked : 'on';
const dir = mkdtempSync(join(tmpdir(), 'berth-bench-checkpoint-'));
const db = openDatabase(dir, { checkpoints: mode === 'worker' ? 'worker' : 'inline' });
await migrateToLatest(db);
if (mode === 'off') await sql`PRAGMA wal_autocheckpoint = 0`.execute(db);
const store = createMetricsHistoryStore(db);
const ids: number[] = [];
for (let h = 0; h < 350; h++) ids.push(await store.seriesId(`host-${h}`, '', null));
const point = (seriesId: number, t: number): Row => {
  const v = () => Math.round(Math.random() * 1e6);
  return {
    ...{ tier: 0, series_id: seriesId, t, n: 1, restarts: 0, health: 1 },
    ...{ cpu: v(), mem: v(), mem_pct: v(), rx: v(), tx: v(), br: v(), bw: v(), disk: v() },
    ...{ cpu_lo: null, cpu_hi: null, mem_lo: null, mem_hi: null, mem_pct_lo: null },
    ...{ mem_pct_hi: null, rx_lo: null, rx_hi: null, tx_lo: null, tx_hi: null },
    ...{ br_lo: null, br_hi: null, bw_lo: null, bw_hi: null, disk_lo: null, disk_hi: null },
  };
};
const T0 = 1_800_000_000;
const times: number[] = [];
for (let m = 0; m < 240; m++) {
  const minute = T0 + m * 60;
  for (let s = 0; s < 60; s += 10) await store.insertPoints(ids.map((id) => point(id, minute + s)));
  for (let i = 0; i < ids.length; i += 50) {
    const started = performance.now();
    await store.rollup(1, 60, minute, minute + 60, ids.slice(i, i + 50));
    times.push(performance.now() - started);
  }
}
console.log(
  `automatic checkpoints ${mode}: ${times.length} roll-up steps of 50 series: p50 ${f1(pct(times, 50))} ms, p99 ${f1(pct(times, 99))} ms, longest ${f1(Math.max(...times))} ms`,
);
await db.destroy();
rmSync(dir, { recursive: true, force: true });
