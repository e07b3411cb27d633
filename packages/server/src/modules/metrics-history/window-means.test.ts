import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../db/database.js';
import { createMetricsHistoryStore, type PointRow } from './metrics-history.store.js';
import { createWindowMeans } from './window-means.js';

let dir: string;
let db: Db;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'berth-window-'));
  db = openDatabase(dir);
  await migrateToLatest(db);
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const empty = Object.fromEntries(
  ['cpu', 'mem', 'mem_pct', 'rx', 'tx', 'br', 'bw', 'disk'].flatMap((g) => [
    [g, null],
    [`${g}_lo`, null],
    [`${g}_hi`, null],
  ]),
) as Omit<PointRow, 'tier' | 'series_id' | 't' | 'n' | 'restarts' | 'health'>;
const point = (series_id: number, t: number, cpu: number | null, n = 5, tier = 0): PointRow => ({
  ...empty,
  tier,
  series_id,
  t,
  n,
  cpu,
  restarts: null,
  health: null,
});

describe('window means (the 10 s tier, through the write path of the store)', () => {
  it('answers each series its sample-weighted mean, oldest and newest point within the window', async () => {
    const store = createMetricsHistoryStore(db);
    const host = await store.seriesId('h1', '', null);
    const web = await store.seriesId('h1', 'web', 'c1');
    const other = await store.seriesId('h2', 'db', 'c2');
    await store.insertPoints([
      point(host, 990, 9000), // before the window
      point(host, 1000, 5000, 1), // 50 % of 1 sample
      point(host, 1010, 8000, 3), // 80 % of 3 samples
      point(host, 1020, null), // no CPU in this bucket: not counted
      point(host, 1060, 9900), // at `to`: outside
      point(web, 1030, 2500),
      point(web, 1030, 9900, 5, 1), // the 1 min tier: never read
      point(other, 1030, 9900),
    ]);
    const means = createWindowMeans(db);
    const hosts = await means({
      gauge: 'cpu',
      scope: 'host',
      hostIds: ['h1'],
      from: 1000,
      to: 1060,
    });
    expect(hosts).toEqual([{ hostId: 'h1', name: '', mean: 72.5, first: 1000, last: 1010 }]);
    const containers = await means({
      gauge: 'cpu',
      scope: 'container',
      hostIds: ['h1', 'h2'],
      from: 1000,
      to: 1060,
    });
    expect(containers.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { hostId: 'h2', name: 'db', mean: 99, first: 1030, last: 1030 },
      { hostId: 'h1', name: 'web', mean: 25, first: 1030, last: 1030 },
    ]);
    expect(
      await means({ gauge: 'mem_pct', scope: 'host', hostIds: ['h1'], from: 1000, to: 1060 }),
    ).toEqual([]);
    expect(await means({ gauge: 'cpu', scope: 'host', hostIds: [], from: 1000, to: 1060 })).toEqual(
      [],
    );
  });
});
