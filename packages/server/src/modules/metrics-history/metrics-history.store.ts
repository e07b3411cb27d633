import { sql, type Generated } from 'kysely';
import type { Db } from '../../db/database.js';
import type { TierNo } from './tiers.js';

/** Gauges: each has a mean column and, in rolled-up tiers, *_lo and *_hi (migration 0025). */
export const GAUGES = ['cpu', 'mem', 'mem_pct', 'rx', 'tx', 'br', 'bw', 'disk'] as const;
export type Gauge = (typeof GAUGES)[number];

type GaugeColumns = { [K in Gauge | `${Gauge}_lo` | `${Gauge}_hi`]: number | null };

/**
 * One point. Scaled integers: cpu and percentages in hundredths, bytes and bytes/s whole;
 * health 1 healthy/online, 2 starting/degraded, 3 unhealthy/offline (the higher, the worse).
 */
export type PointRow = GaugeColumns & {
  tier: number;
  series_id: number;
  /** Bucket start, Unix seconds. */
  t: number;
  /** Samples the point was made of. */
  n: number;
  restarts: number | null;
  health: number | null;
};

interface SeriesTable {
  id: Generated<number>;
  host_id: string;
  name: string;
  container_id: string | null;
}
interface RollupTable {
  tier: number;
  done_until: number;
}
type Tables = { metric_series: SeriesTable; metric_points: PointRow; metric_rollups: RollupTable };

/** Rows per INSERT: 30 columns each stays well under SQLite's bound-variable limit. */
const INSERT_CHUNK = 400;

export interface MetricsHistoryStore {
  /** The series of a host ('' name) or a container by name, made on first use. */
  seriesId(hostId: string, name: string, containerId: string | null): Promise<number>;
  findSeries(hostId: string, name: string): Promise<number | undefined>;
  /** Writes a batch in one transaction; a point already there is kept (never doubled). */
  insertPoints(rows: readonly PointRow[]): Promise<void>;
  points(seriesId: number, tier: TierNo, from: number, to: number): Promise<PointRow[]>;
  doneUntil(tier: TierNo): Promise<number | null>;
  setDoneUntil(tier: TierNo, t: number): Promise<void>;
  /** The tier's oldest point's time (at or after `from` when given). */
  oldest(tier: TierNo, from?: number): Promise<number | null>;
  /** The series with points of the tier in `[from, to)`, ascending. */
  seriesIn(tier: TierNo, from: number, to: number): Promise<number[]>;
  /**
   * Rolls `[from, to)` of the named series of the tier below into `tier`'s buckets of
   * `resolution` s; answers the points written.
   */
  rollup(
    tier: TierNo,
    resolution: number,
    from: number,
    to: number,
    series: readonly number[],
  ): Promise<number>;
  /** Deletes the tier's points in `[from, to)`; answers how many went. */
  deleteRange(tier: TierNo, from: number, to: number): Promise<number>;
  /** Removes series without a point left, except those named (being written now). */
  pruneEmptySeries(keep: ReadonlySet<number>): Promise<number>;
}

const rolledColumns = GAUGES.flatMap((g) => [g, `${g}_lo`, `${g}_hi`]);
// Means weighted by samples; a gauge absent in some rows is averaged over the rows that have it.
const rolledSelect = GAUGES.map(
  (g) =>
    `CAST(ROUND(SUM(${g} * n) * 1.0 / SUM(CASE WHEN ${g} IS NULL THEN 0 ELSE n END)) AS INTEGER), ` +
    `MIN(COALESCE(${g}_lo, ${g})), MAX(COALESCE(${g}_hi, ${g}))`,
).join(', ');

export function createMetricsHistoryStore(base: Db): MetricsHistoryStore {
  const db = base.$extendTables<Tables>();
  return {
    async seriesId(hostId, name, containerId) {
      const row = await db
        .insertInto('metric_series')
        .values({ host_id: hostId, name, container_id: containerId })
        .onConflict((oc) =>
          oc.columns(['host_id', 'name']).doUpdateSet({ container_id: containerId }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async findSeries(hostId, name) {
      const row = await db
        .selectFrom('metric_series')
        .select('id')
        .where('host_id', '=', hostId)
        .where('name', '=', name)
        .executeTakeFirst();
      return row?.id;
    },

    insertPoints(rows) {
      return db.transaction().execute(async (tx) => {
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          await tx
            .insertInto('metric_points')
            .values(rows.slice(i, i + INSERT_CHUNK))
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
      });
    },

    points(seriesId, tier, from, to) {
      return db
        .selectFrom('metric_points')
        .selectAll()
        .where('tier', '=', tier)
        .where('series_id', '=', seriesId)
        .where('t', '>=', from)
        .where('t', '<', to)
        .orderBy('t')
        .execute();
    },

    async doneUntil(tier) {
      const row = await db
        .selectFrom('metric_rollups')
        .select('done_until')
        .where('tier', '=', tier)
        .executeTakeFirst();
      return row?.done_until ?? null;
    },

    async setDoneUntil(tier, t) {
      await db
        .insertInto('metric_rollups')
        .values({ tier, done_until: t })
        .onConflict((oc) => oc.column('tier').doUpdateSet({ done_until: t }))
        .execute();
    },

    async oldest(tier, from) {
      const row = await db
        .selectFrom('metric_points')
        .select('t')
        .where('tier', '=', tier)
        .$if(from !== undefined, (q) => q.where('t', '>=', from ?? 0))
        .orderBy('t')
        .limit(1)
        .executeTakeFirst();
      return row?.t ?? null;
    },

    async seriesIn(tier, from, to) {
      // The (tier, t) index holds the series id: a scan of the index alone.
      const rows = await db
        .selectFrom('metric_points')
        .select('series_id')
        .distinct()
        .where('tier', '=', tier)
        .where('t', '>=', from)
        .where('t', '<', to)
        .execute();
      return rows.map((r) => r.series_id).sort((a, b) => a - b);
    },

    async rollup(tier, resolution, from, to, series) {
      if (series.length === 0) return 0;
      // Each series' points of the window are one range of the primary key. Literal numbers:
      // a bound one is a REAL to SQLite, and `t / 60.0` would not make a bucket.
      const result = await sql`INSERT OR IGNORE INTO metric_points
             (tier, series_id, t, n, ${sql.raw(rolledColumns.join(', '))}, restarts, health)
           SELECT ${sql.lit(tier)}, series_id, (t / ${sql.lit(resolution)}) * ${sql.lit(resolution)} AS b, SUM(n),
             ${sql.raw(rolledSelect)}, MAX(restarts), MAX(health)
           FROM metric_points
           WHERE tier = ${sql.lit(tier - 1)} AND series_id IN (${sql.join(series)})
             AND t >= ${from} AND t < ${to}
           GROUP BY series_id, b`.execute(db);
      return Number(result.numAffectedRows ?? 0n);
    },

    async deleteRange(tier, from, to) {
      const result = await db
        .deleteFrom('metric_points')
        .where('tier', '=', tier)
        .where('t', '>=', from)
        .where('t', '<', to)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async pruneEmptySeries(keep) {
      const empty = await db
        .selectFrom('metric_series as s')
        .select('s.id')
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('metric_points as p')
                .select('p.t')
                .where('p.tier', 'in', [0, 1, 2])
                .whereRef('p.series_id', '=', 's.id'),
            ),
          ),
        )
        .execute();
      const gone = empty.map((r) => r.id).filter((id) => !keep.has(id));
      if (gone.length === 0) return 0;
      await db.deleteFrom('metric_series').where('id', 'in', gone).execute();
      return gone.length;
    },
  };
}
