import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** The percentage gauges a metric alert rule can compare (stored in hundredths). */
export type WindowGauge = 'cpu' | 'mem_pct' | 'disk';

export interface WindowQuery {
  gauge: WindowGauge;
  /** Hosts' own series ('' name) or their containers' series. */
  scope: 'host' | 'container';
  hostIds: readonly string[];
  /** Unix seconds, `[from, to)` by bucket start. */
  from: number;
  to: number;
}

export interface WindowMean {
  hostId: string;
  /** '' for a host; a container's name otherwise. */
  name: string;
  /** Mean of the window's samples, in percent. */
  mean: number;
  /** Bucket starts of the oldest and newest point that had the gauge, Unix seconds. */
  first: number;
  last: number;
}

const GAUGE_COLUMN: Record<WindowGauge, string> = { cpu: 'cpu', mem_pct: 'mem_pct', disk: 'disk' };

/** Lets other work run between two statements. */
const yieldTurn = () => new Promise<void>((done) => setImmediate(done));
/** Statements run back to back until this long has passed, then other work gets a turn. */
const SLICE_MS = 10;

/**
 * The mean of one gauge over a window of the 10 s tier for every series of some hosts. One
 * statement per series, each one range of the points' primary key (tier, series, t), with a
 * turn for other work every 10 ms: a day's window over 300 containers reads 2.6 million
 * points, which in one statement held the event loop for seconds (bench/look-back).
 * Means are weighted by the samples each point was made of, as roll-ups weigh them.
 */
export function createWindowMeans(db: Db): (q: WindowQuery) => Promise<WindowMean[]> {
  return async (q) => {
    if (q.to <= q.from || q.hostIds.length === 0) return [];
    const g = sql.ref(GAUGE_COLUMN[q.gauge]);
    const series = await sql<{ id: number; host_id: string; name: string }>`
      SELECT id, host_id, name FROM metric_series
      WHERE host_id IN (${sql.join(q.hostIds)}) AND ${q.scope === 'host' ? sql`name = ''` : sql`name <> ''`}`.execute(
      db,
    );
    const out: WindowMean[] = [];
    let slice = performance.now();
    for (const s of series.rows) {
      if (performance.now() - slice > SLICE_MS) {
        await yieldTurn();
        slice = performance.now();
      }
      const r = (
        await sql<{ total: number | null; n: number | null; first: number; last: number }>`
          SELECT SUM(${g} * n) AS total, SUM(n) AS n, MIN(t) AS first, MAX(t) AS last
          FROM metric_points
          WHERE tier = 0 AND series_id = ${s.id} AND t >= ${q.from} AND t < ${q.to}
            AND ${g} IS NOT NULL`.execute(db)
      ).rows[0];
      if (r === undefined || r.n === null || r.n === 0 || r.total === null) continue;
      out.push({
        hostId: s.host_id,
        name: s.name,
        mean: Math.round(r.total / r.n) / 100,
        first: r.first,
        last: r.last,
      });
    }
    return out;
  };
}
