import type { MetricBand, MetricsResponse, MetricsTierId } from '@berth/contracts';
import { GAUGES, type Gauge, type PointRow } from './metrics-history.store.js';

/** Stored hundredths back to percent; bytes stay whole. */
const SCALE: Record<Gauge, number> = {
  cpu: 100,
  mem: 1,
  mem_pct: 100,
  rx: 1,
  tx: 1,
  br: 1,
  bw: 1,
  disk: 100,
};
const FIELD: Record<Gauge, keyof MetricsResponse> = {
  cpu: 'cpu_percent',
  mem: 'memory_bytes',
  mem_pct: 'memory_percent',
  rx: 'net_rx_bytes_per_sec',
  tx: 'net_tx_bytes_per_sec',
  br: 'block_read_bytes_per_sec',
  bw: 'block_write_bytes_per_sec',
  disk: 'disk_percent',
};
const CONTAINER_HEALTH = [null, 'healthy', 'starting', 'unhealthy'] as const;
const HOST_HEALTH = [null, 'online', 'degraded', 'offline'] as const;

interface Merged {
  t: number;
  n: Record<Gauge, number>;
  sum: Record<Gauge, number>;
  lo: Record<Gauge, number | null>;
  hi: Record<Gauge, number | null>;
  restarts: number | null;
  health: number | null;
}

const maxOf = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);
const minOf = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.min(a, b);
const record = <T>(f: () => T) =>
  Object.fromEntries(GAUGES.map((g) => [g, f()])) as Record<Gauge, T>;

/**
 * Rows of one tier as the answer's columns, merged into `step`-second points when the step is
 * coarser than the tier: means weighted by samples, the lowest low and the highest high.
 */
export function toResponse(
  rows: readonly PointRow[],
  o: {
    hostId: string;
    containerName: string | null;
    tier: MetricsTierId;
    step: number;
    from: number;
    to: number;
  },
): MetricsResponse {
  const points: Merged[] = [];
  for (const r of rows) {
    const t = Math.floor(r.t / o.step) * o.step;
    let m = points[points.length - 1];
    if (m?.t !== t) {
      m = {
        t,
        n: record(() => 0),
        sum: record(() => 0),
        lo: record(() => null),
        hi: record(() => null),
        restarts: null,
        health: null,
      };
      points.push(m);
    }
    for (const g of GAUGES) {
      const v = r[g];
      if (v === null) continue;
      m.n[g] += r.n;
      m.sum[g] += v * r.n;
      m.lo[g] = minOf(m.lo[g], r[`${g}_lo`] ?? v);
      m.hi[g] = maxOf(m.hi[g], r[`${g}_hi`] ?? v);
    }
    m.restarts = maxOf(m.restarts, r.restarts);
    m.health = maxOf(m.health, r.health);
  }
  const answer = {
    host_id: o.hostId,
    container_name: o.containerName,
    tier: o.tier,
    step: o.step,
    from: new Date(o.from * 1000).toISOString(),
    to: new Date(o.to * 1000).toISOString(),
    t: points.map((p) => p.t),
    restarts: points.map((p) => p.restarts),
    health: points.map((p) => {
      const names = o.containerName === null ? HOST_HEALTH : CONTAINER_HEALTH;
      return p.health === null ? null : (names[p.health] ?? null);
    }),
  } as MetricsResponse;
  for (const g of GAUGES) {
    const scale = SCALE[g];
    const down = (v: number | null) => (v === null ? null : v / scale);
    const band: MetricBand = {
      min: points.map((p) => down(p.lo[g])),
      mean: points.map((p) => (p.n[g] === 0 ? null : Math.round(p.sum[g] / p.n[g]) / scale)),
      max: points.map((p) => down(p.hi[g])),
    };
    Object.assign(answer, { [FIELD[g]]: band });
  }
  return answer;
}
