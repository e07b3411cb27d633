import type { Container, Host, HostStats, Sparklines } from '@berth/contracts';
import type { ContainersData } from '@/lib/queries';

/** The live channel's figures of hosts, as the dashboard reads them from the containers entry. */
export interface LiveHostFigures {
  metrics: Record<string, HostStats>;
  sparklines: Record<string, Sparklines>;
  /** Containers per host, counted from the live list. */
  counts: ReadonlyMap<string, { total: number; running: number }>;
}

const countsOf = new WeakMap<Container[], LiveHostFigures['counts']>();

/** Counted once per list: most messages change stats only, and the list stays the same array. */
function countByHost(containers: Container[]): LiveHostFigures['counts'] {
  let counts = countsOf.get(containers);
  if (counts !== undefined) return counts;
  const out = new Map<string, { total: number; running: number }>();
  for (const c of containers) {
    let n = out.get(c.host_id);
    if (n === undefined) out.set(c.host_id, (n = { total: 0, running: 0 }));
    n.total++;
    if (c.state === 'running') n.running++;
  }
  countsOf.set(containers, (counts = out));
  return counts;
}

/** `select` of the containers entry for the dashboard's hosts. */
export const selectLiveHostFigures = (data: ContainersData): LiveHostFigures => ({
  metrics: data.host_metrics,
  sparklines: data.host_sparklines,
  counts: countByHost(data.containers),
});

const NO_COUNT = { total: 0, running: 0 };
const merged = new WeakMap<
  Host,
  { stats: unknown; sparklines: unknown; count: unknown; out: Host }
>();

/**
 * Each host of GET /hosts with the newest live figures: stats, sparklines and, for a host that
 * reports containers (online or degraded), its counts. A host whose figures did not change
 * since the last call is the same object as then, so its memoised card does not re-render.
 */
export function withLiveFigures(hosts: Host[], live: LiveHostFigures | undefined): Host[] {
  if (live === undefined) return hosts;
  return hosts.map((host) => {
    const stats = live.metrics[host.id] ?? host.stats;
    const sparklines = live.sparklines[host.id] ?? host.sparklines;
    // Only online hosts report containers; an offline host keeps what the server said.
    const online = host.status === 'online' || host.status === 'degraded';
    const count = online ? (live.counts.get(host.id) ?? NO_COUNT) : null;
    const last = merged.get(host);
    if (
      last !== undefined &&
      last.stats === stats &&
      last.sparklines === sparklines &&
      sameCount(last.count as typeof count, count)
    )
      return last.out;
    const out: Host =
      count === null
        ? { ...host, stats, sparklines }
        : {
            ...host,
            stats,
            sparklines,
            container_count: count.total,
            containers: {
              total: count.total,
              running: count.running,
              stopped: count.total - count.running,
            },
          };
    merged.set(host, { stats, sparklines, count, out });
    return out;
  });
}

function sameCount(
  a: { total: number; running: number } | null,
  b: { total: number; running: number } | null,
): boolean {
  return a === b || (a !== null && b !== null && a.total === b.total && a.running === b.running);
}
