import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../db/database.js';
import { historyFleet, statsOf } from '../../test/history-fleet.js';
import { MetricsHistoryService } from './metrics-history.service.js';
import { createMetricsHistoryStore, type MetricsHistoryStore } from './metrics-history.store.js';
import { DEFAULT_RETENTION, type HistoryRetention } from './tiers.js';

const T0 = 1_800_000_000_000; // ms, a multiple of 15 min
let dir: string;
let db: Db;
let store: MetricsHistoryStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'berth-history-'));
  db = openDatabase(dir);
  await migrateToLatest(db);
  store = createMetricsHistoryStore(db);
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

function logger() {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (_obj: object, msg: string) => lines.push({ level, msg });
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

/** A history on a fake fleet with one container whose CPU follows `cpuAt(second)`. */
function setup(
  s: MetricsHistoryStore,
  cpuAt: (second: number) => number,
  retention?: () => HistoryRetention,
) {
  const fake = historyFleet([{ id: 'h1' }]);
  const clock = { now: T0 };
  const c = fake.add('h1', { id: 'c1', name: 'web', running: true, stats: statsOf(0, 100) });
  const { lines, log } = logger();
  const history = new MetricsHistoryService({
    store: s,
    fleet: fake.fleet,
    log,
    now: () => clock.now,
    mono: () => clock.now,
    rest: () => Promise.resolve(),
    ...(retention === undefined ? {} : { retention }),
  });
  /** Stats passes every `everyS` seconds for `seconds`, each written. */
  const run = async (seconds: number, everyS = 10) => {
    for (let i = 0; i < seconds / everyS; i++) {
      c.stats = statsOf(cpuAt((clock.now - T0) / 1000), 100);
      history.sampleNow();
      await history.flush();
      clock.now += everyS * 1000;
    }
  };
  return { history, clock, run, lines, container: c, fake };
}

describe('metrics history roll-ups and retention', () => {
  it('rolls 10 s points up to minutes and quarter hours with min, mean and max', async () => {
    // CPU climbs 1 % per 10 s within each minute: 0..5, mean 2.5.
    const { history, run, clock } = setup(store, (s) => Math.floor((s % 60) / 10));
    await run(3610); // the last 10 s bucket of the hour is written once the next began
    clock.now += 10 * 60_000;
    const report = await history.maintain();
    expect(report.rolledUp).toBeGreaterThan(0);
    const minutes = await history.query('h1', 'c1', {
      from: new Date(T0).toISOString(),
      to: new Date(T0 + 3600_000).toISOString(),
      step: 60,
    });
    expect(minutes.tier).toBe('1m');
    expect(minutes.t.length).toBe(60);
    expect(minutes.cpu_percent.min[0]).toBe(0);
    expect(minutes.cpu_percent.mean[0]).toBe(2.5);
    expect(minutes.cpu_percent.max[0]).toBe(5);
    // Merged to 2 min points: the mean of the means, the lowest low and the highest high.
    const pairs = await history.query('h1', 'c1', {
      from: new Date(T0).toISOString(),
      to: new Date(T0 + 3600_000).toISOString(),
      step: 120,
    });
    expect(pairs).toMatchObject({ tier: '1m', step: 120 });
    expect(pairs.t.slice(0, 2)).toEqual([T0 / 1000, T0 / 1000 + 120]);
    expect(pairs.cpu_percent.mean.slice(0, 2)).toEqual([2.5, 2.5]);
    expect(pairs.cpu_percent.min[0]).toBe(0);
    expect(pairs.cpu_percent.max[0]).toBe(5);
    expect(pairs.health[0]).toBeNull(); // no health check
    const quarters = await history.query('h1', 'web', {
      from: new Date(T0).toISOString(),
      to: new Date(T0 + 3600_000).toISOString(),
      step: 900,
    });
    expect(quarters).toMatchObject({ tier: '15m', container_name: 'web' });
    expect(quarters.t).toEqual([0, 1, 2, 3].map((i) => T0 / 1000 + i * 900));
    expect(quarters.cpu_percent.mean).toEqual([2.5, 2.5, 2.5, 2.5]);
    expect(quarters.cpu_percent.max).toEqual([5, 5, 5, 5]);
    // Nothing is rolled up twice.
    const again = await history.maintain();
    expect(again.rolledUp).toBe(0);
  });

  it('fills what the coarser tiers have not rolled up yet from the finer ones, counting nothing twice', async () => {
    const { history, run, clock } = setup(store, (s) => (s < 120 ? 2 : 8));
    await run(240); // a new container: four minutes of 10 s points, none rolled up yet
    const day = () =>
      history.query('h1', 'c1', {
        from: new Date(clock.now - 86_400_000).toISOString(),
        to: new Date(clock.now).toISOString(),
      });
    const before = await day();
    expect(before.tier).toBe('1m');
    expect(before.t).toEqual([0, 60, 120, 180].map((s) => T0 / 1000 + s));
    expect(before.cpu_percent.mean).toEqual([2, 2, 8, 8]);
    const quarter = await history.query('h1', 'c1', {
      from: new Date(T0).toISOString(),
      to: new Date(clock.now).toISOString(),
      step: 900,
    });
    expect(quarter).toMatchObject({ tier: '15m', t: [T0 / 1000] });
    expect([quarter.cpu_percent.min[0], quarter.cpu_percent.max[0]]).toEqual([2, 8]);

    // Once closed minutes are rolled up, they come from the 1 min tier and the open one from
    // the 10 s points after them: the same answer.
    clock.now += 60_000;
    expect((await history.maintain()).rolledUp).toBeGreaterThan(0);
    clock.now -= 60_000;
    expect(await day()).toEqual(before);
  });

  it('deletes each tier past its retention in bounded steps, and keeps a removed container by name', async () => {
    const { history, run, clock, fake } = setup(store, () => 1);
    await run(2 * 3600, 10);
    fake.containers.set('h1', []); // removed
    clock.now += 25 * 3600_000; // a day later: the 10 s points have aged out
    history.sampleNow(); // closes the last open buckets
    await history.flush();
    const report = await history.maintain();
    expect(report.deleted).toBe(2 * 360 * 2); // the container's and the host's
    expect(report.steps).toBeGreaterThan(20); // bounded steps, not one delete
    const rows = await db
      .selectFrom('metric_points' as never)
      .select(['tier' as never])
      .execute();
    expect(rows.every((r) => (r as { tier: number }).tier > 0)).toBe(true);
    const left = await history.query('h1', 'web', {
      from: new Date(T0).toISOString(),
      to: new Date(T0 + 2 * 3600_000).toISOString(),
    });
    expect(left.tier).toBe('1m');
    expect(left.t.length).toBe(120);
  });

  it("reads each tier's retention at every round: a changed setting applies at the next", async () => {
    const retention = { ...DEFAULT_RETENTION };
    const { history, run, clock } = setup(
      store,
      () => 1,
      () => retention,
    );
    await run(3 * 3600, 10);
    clock.now += 5 * 60_000;
    await history.maintain();
    const raw = async () => {
      const rows = await db
        .selectFrom('metric_points' as never)
        .select(['t' as never])
        .where('tier' as never, '=', 0 as never)
        .orderBy('t' as never)
        .execute();
      return rows.map((r) => (r as { t: number }).t);
    };
    expect((await raw())[0]).toBe(T0 / 1000); // 24 h: all three hours kept
    retention.rawHours = 1;
    const report = await history.maintain();
    expect(report.deleted).toBeGreaterThan(0);
    const nowS = clock.now / 1000;
    expect((await raw())[0]).toBeGreaterThanOrEqual(nowS - 3600);
    // The query plan follows too: two hours back is now answered from the 1 min tier.
    const answer = await history.query('h1', 'web', {
      from: new Date(clock.now - 2 * 3600_000).toISOString(),
      to: new Date(clock.now).toISOString(),
    });
    expect(answer.tier).toBe('1m');
  });

  it("rolls a bucket up in batches of series sized from the last step's time", async () => {
    const fake = historyFleet([{ id: 'h1' }]);
    for (let i = 0; i < 400; i++)
      fake.add('h1', { id: `c${i}`, name: `app-${i}`, running: true, stats: statsOf(i % 7, 100) });
    const batches: number[] = [];
    const slow: MetricsHistoryStore = {
      ...store,
      rollup: async (tier, res, from, to, series) => {
        if (tier === 1) batches.push(series.length);
        const n = await store.rollup(tier, res, from, to, series);
        const until = performance.now() + 20; // a slow machine: each step takes 20 ms
        while (performance.now() < until);
        return n;
      },
    };
    let now = T0;
    const history = new MetricsHistoryService({
      store: slow,
      fleet: fake.fleet,
      log: logger().log,
      now: () => now,
      mono: () => now,
      rest: () => Promise.resolve(),
    });
    for (let i = 0; i < 12; i++) {
      history.sampleNow();
      await history.flush();
      now += 10_000;
    }
    now += 3 * 60_000;
    const report = await history.maintain();
    // The first step reads 200 series of the minute, the next ones fewer: 8 ms is the aim.
    expect(batches[0]).toBe(200);
    expect(batches.slice(1).every((n) => n < 200)).toBe(true);
    expect(batches.slice(0, 3).reduce((a, b) => a + b, 0)).toBeLessThan(401);
    // Every series of every minute is rolled up once: 401 series, 2 minutes.
    expect(report.rolledUp).toBe(401 * 2);
    const minutes = await db
      .selectFrom('metric_points' as never)
      .select(['series_id' as never])
      .where('tier' as never, '=', 1 as never)
      .execute();
    expect(minutes.length).toBe(401 * 2);
  });

  it('answers 404 for a container that has no history', async () => {
    const { history } = setup(store, () => 1);
    await expect(history.query('h1', 'nope', {})).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('a full disk', () => {
  it('drops the points, logs once a minute, and writes again when there is room', async () => {
    let full = false;
    const filling: MetricsHistoryStore = {
      ...store,
      insertPoints: (rows) =>
        full
          ? Promise.reject(
              Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
            )
          : store.insertPoints(rows),
    };
    const { history, run, lines, clock } = setup(filling, () => 3);
    await run(60);
    full = true;
    await run(180); // three minutes of failing writes, every 10 s
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings.length).toBe(3);
    expect(warnings[0]?.msg).toMatch(/disk is full/);
    full = false;
    await run(60);
    expect(lines.some((l) => l.msg === 'metrics history writes again')).toBe(true);
    const answer = await history.query('h1', null, {
      from: new Date(T0).toISOString(),
      to: new Date(clock.now).toISOString(),
    });
    // The first minute and the last one (less the open bucket); the full stretch is a gap.
    expect(answer.t.length).toBe(6 + 5);
    expect(answer.disk_percent.mean.some((v) => v === 42.5)).toBe(true);
  });
});
