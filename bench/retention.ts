// bench/retention: prunes a million expired events through the retention service and prints
// the longest single delete and the worst event-loop delay seen meanwhile. Asserts nothing.
// Run after `npm run build -w @berth/server`: node bench/retention.ts [events=1000000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openMigratedDatabase, seedEvents } from './seed-events.ts';

const ROOT = resolve(import.meta.dirname, '..');
const dist = (path: string) => join(ROOT, 'packages/server/dist', path);
const { RetentionService } = (await import(
  dist('modules/retention/index.js')
)) as typeof import('../packages/server/src/modules/retention/index.ts');
const COUNT = Number(process.argv[2] ?? 1_000_000);

const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-retention-'));
const { db, events } = await openMigratedDatabase(dataDir);

// Seed directly: events 90..100 days old, past the default 60.
const oldest = Date.now() - 100 * 86_400_000;
let started = performance.now();
await seedEvents({
  file: join(dataDir, 'berth.db'),
  count: COUNT,
  row: (i) => ({
    timestamp: new Date(oldest + i * 800).toISOString(),
    severity: 'info',
    category: 'container',
    event_type: 'died',
    title: `Container Died: app-${i % 2000}`,
    message: `Exit code ${i % 7}`,
    host_name: `node-${i % 20}`,
    container_name: `app-${i % 2000}`,
  }),
  rollIndexIfFull: () => events.rollIndexIfFull(),
});
console.log(`seeded ${COUNT} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const none = () => Promise.resolve(0);
const chunks: [number, number][] = [];
let drops = 0;
const timed = {
  rollIndexIfFull: () => events.rollIndexIfFull(),
  dropEmptyIndexPartition: async () => {
    const t0 = performance.now();
    const dropped = await events.dropEmptyIndexPartition();
    // Listed as -1: a dropped partition, not a chunk of rows.
    if (dropped) chunks.push([-1, performance.now() - t0]);
    drops += dropped ? 1 : 0;
    return dropped;
  },
  pruneOlderThan: async (cutoff: string, limit: number) => {
    const t0 = performance.now();
    const n = await events.pruneOlderThan(cutoff, limit);
    chunks.push([limit, performance.now() - t0]);
    return n;
  },
};
const retention = new RetentionService({
  settings: {
    get: () => ({
      event_retention_days: 60,
      alert_retention_days: 90,
      unused_tag_retention_days: 0,
    }),
  },
  events: timed,
  batch: { pruneOlderThan: none },
  alerts: { pruneResolvedBefore: none },
  auth: { pruneExpiredSessions: none },
  containerSettings: { pruneUnusedTags: none },
  log: { info: () => undefined, error: () => undefined },
});
const lag = monitorEventLoopDelay({ resolution: 5 });
lag.enable();
started = performance.now();
const report = await retention.runOnce();
lag.disable();
console.log(
  `pruned ${report.events} events in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
    `longest single delete ${report.longestChunkMs.toFixed(1)} ms; ` +
    `event-loop delay max ${(lag.max / 1e6).toFixed(1)} ms, p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms`,
);
console.log(`${drops} search-index partitions dropped after the deletes`);
if (process.env.CHUNKS) console.log(chunks.map(([n, ms]) => `${n}:${ms.toFixed(0)}`).join(' '));
await events.close();
await db.destroy();
rmSync(dataDir, { recursive: true, force: true });
