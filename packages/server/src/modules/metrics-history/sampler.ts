import type { Fleet } from '../monitor/index.js';
import { GAUGES, type Gauge } from './metrics-history.store.js';

/** What the sampler reads of the monitor (through its index). */
export type SampledFleet = Pick<
  Fleet,
  'hosts' | 'containers' | 'containerStats' | 'hostStats' | 'engineDisk'
>;

export interface Clock {
  /** Wall clock, ms: where a point's bucket is (may jump either way). */
  now(): number;
  /** Monotonic ms: what a rate is divided by (never goes back). */
  mono(): number;
}

/** A finished point of one series, scaled as stored (metrics-history.store.ts). */
export interface ClosedPoint {
  hostId: string;
  /** '' for the host. */
  name: string;
  containerId: string | null;
  t: number;
  n: number;
  values: Record<Gauge, number | null>;
  restarts: number | null;
  health: number | null;
}

interface Accumulator {
  hostId: string;
  name: string;
  containerId: string | null;
  t: number;
  n: number;
  sums: Record<Gauge, number>;
  counts: Record<Gauge, number>;
  restarts: number | null;
  health: number | null;
}

type Reading = Omit<ClosedPoint, 't' | 'n'>;

/** A container's cumulative counters at one pass (block ones when its stats source has them). */
interface Counters {
  rx: number;
  tx: number;
  br: number | undefined;
  bw: number | undefined;
}
type Rates = { rx: number | null; tx: number | null; br: number | null; bw: number | null };
const NO_RATES: Rates = { rx: null, tx: null, br: null, bw: null };
/** Adds a container's rate to its host's sum; null stays null until some container has one. */
const plus = (sum: number | null, rate: number | null) => (rate === null ? sum : (sum ?? 0) + rate);

const CONTAINER_HEALTH = { healthy: 1, starting: 2, unhealthy: 3 } as const;
const HOST_HEALTH = { online: 1, degraded: 2, offline: 3, error: 3 } as const;
/** The disk is measured once a minute per host: a statfs or an agent call, not every tick. */
const DISK_EVERY_MS = 60_000;

const pct = (n: number) => Math.round(n * 100);
const zeros = (): Record<Gauge, number> =>
  Object.fromEntries(GAUGES.map((g) => [g, 0])) as Record<Gauge, number>;

/**
 * Turns the monitor's stats passes into 10 s points: every sample of a series within a bucket
 * is averaged into it, and a bucket is handed over once the clock has left it. Network and
 * block I/O rates come from the cumulative counters over the monotonic clock: a counter that
 * went back (a restart) or no time passed gives no rate, never a negative one. When the wall
 * clock jumps back, samples are dropped until it passes the last bucket again, so no point is
 * written twice.
 */
export class Sampler {
  private readonly open = new Map<string, Accumulator>();
  private readonly lastBucket = new Map<string, number>();
  private readonly counters = new Map<string, Counters & { at: number }>();
  private readonly disks = new Map<string, { percent: number | null; at: number }>();

  constructor(
    private readonly fleet: SampledFleet,
    private readonly clock: Clock,
    private readonly resolution = 10,
  ) {}

  /** Reads the pass that just ended; answers the points that closed. */
  sample(): ClosedPoint[] {
    const nowMs = this.clock.now();
    const bucket = Math.floor(nowMs / 1000 / this.resolution) * this.resolution;
    const closed = this.closeBefore(bucket);
    const seenCounters = new Set<string>();
    for (const host of this.fleet.hosts()) {
      let sums: Rates = NO_RATES;
      let restarts = 0;
      for (const c of host.status === 'offline' ? [] : this.fleet.containers(host.id)) {
        const stats = c.state === 'running' ? this.fleet.containerStats(host.id, c.id) : undefined;
        if (stats === undefined) continue;
        restarts += c.restartCount;
        const key = `${host.id}\0${c.id}`;
        seenCounters.add(key);
        const rate = this.rates(key, {
          rx: stats.network_rx,
          tx: stats.network_tx,
          br: stats.block_read,
          bw: stats.block_write,
        });
        sums = {
          rx: plus(sums.rx, rate.rx),
          tx: plus(sums.tx, rate.tx),
          br: plus(sums.br, rate.br),
          bw: plus(sums.bw, rate.bw),
        };
        this.add(bucket, {
          hostId: host.id,
          name: c.name,
          containerId: c.id,
          values: {
            cpu: pct(stats.cpu_percent),
            mem: stats.memory_usage,
            mem_pct: pct(stats.memory_percent),
            ...rate,
            disk: null,
          },
          restarts: c.restartCount,
          health: c.health === null ? null : CONTAINER_HEALTH[c.health],
        });
      }
      const stats = this.fleet.hostStats(host.id);
      this.add(bucket, {
        hostId: host.id,
        name: '',
        containerId: null,
        values: {
          cpu: stats === null ? null : pct(stats.cpu_percent),
          mem: stats?.mem_bytes ?? null,
          mem_pct: stats === null ? null : pct(stats.mem_percent),
          ...sums,
          disk: stats === null ? null : this.disk(host.id),
        },
        restarts: stats === null ? null : restarts,
        health: HOST_HEALTH[host.status],
      });
    }
    for (const key of this.counters.keys()) if (!seenCounters.has(key)) this.counters.delete(key);
    return closed;
  }

  /** Every open bucket, as if the clock had moved on (at stop). */
  drain(): ClosedPoint[] {
    return this.closeBefore(Number.POSITIVE_INFINITY);
  }

  /**
   * Rates since the last pass over the monotonic clock. A pair of counters that went back (a
   * restart) or lacks a reading, or no time passed, gives no rate: never a negative one.
   */
  private rates(key: string, now: Counters): Rates {
    const at = this.clock.mono();
    const prev = this.counters.get(key);
    this.counters.set(key, { ...now, at });
    if (prev === undefined) return NO_RATES;
    const seconds = (at - prev.at) / 1000;
    if (seconds <= 0) return NO_RATES;
    const rate = (before: number | undefined, after: number | undefined) =>
      before === undefined || after === undefined || after < before
        ? null
        : Math.round((after - before) / seconds);
    // A counter of a pair that went back means both were reset (a restart): neither counts.
    const both = (a: number | null, b: number | null) => (a === null || b === null ? null : [a, b]);
    const net = both(rate(prev.rx, now.rx), rate(prev.tx, now.tx));
    const block = both(rate(prev.br, now.br), rate(prev.bw, now.bw));
    return {
      rx: net?.[0] ?? null,
      tx: net?.[1] ?? null,
      br: block?.[0] ?? null,
      bw: block?.[1] ?? null,
    };
  }

  private disk(hostId: string): number | null {
    const known = this.disks.get(hostId);
    const mono = this.clock.mono();
    if (known === undefined || mono - known.at >= DISK_EVERY_MS) {
      const entry = { percent: known?.percent ?? null, at: mono };
      this.disks.set(hostId, entry);
      this.fleet.engineDisk(hostId).then(
        (d) => {
          entry.percent = 'percent' in d ? pct(d.percent) : null;
        },
        () => {
          entry.percent = null;
        },
      );
    }
    return known?.percent ?? null;
  }

  private add(bucket: number, reading: Reading): void {
    const key = `${reading.hostId}\0${reading.name}`;
    const last = this.lastBucket.get(key);
    if (last !== undefined && bucket <= last) return; // the clock went back: that bucket is written
    let acc = this.open.get(key);
    if (acc !== undefined && bucket < acc.t) return; // back within the open one's past
    if (acc === undefined) {
      acc = {
        hostId: reading.hostId,
        name: reading.name,
        containerId: reading.containerId,
        t: bucket,
        n: 0,
        sums: zeros(),
        counts: zeros(),
        restarts: null,
        health: null,
      };
      this.open.set(key, acc);
    }
    acc.n++;
    acc.containerId = reading.containerId;
    for (const g of GAUGES) {
      const v = reading.values[g];
      if (v === null) continue;
      acc.sums[g] += v;
      acc.counts[g]++;
    }
    if (reading.restarts !== null) acc.restarts = Math.max(acc.restarts ?? 0, reading.restarts);
    if (reading.health !== null) acc.health = Math.max(acc.health ?? 0, reading.health);
  }

  private closeBefore(bucket: number): ClosedPoint[] {
    const closed: ClosedPoint[] = [];
    for (const [key, acc] of this.open) {
      if (acc.t >= bucket) continue;
      this.open.delete(key);
      this.lastBucket.set(key, acc.t);
      const values = {} as Record<Gauge, number | null>;
      for (const g of GAUGES)
        values[g] = acc.counts[g] === 0 ? null : Math.round(acc.sums[g] / acc.counts[g]);
      closed.push({
        hostId: acc.hostId,
        name: acc.name,
        containerId: acc.containerId,
        t: acc.t,
        n: acc.n,
        values,
        restarts: acc.restarts,
        health: acc.health,
      });
    }
    // Series seen no more (a removed container) need no guard once their bucket has passed.
    if (this.lastBucket.size > this.open.size * 2 + 1000)
      for (const [key, t] of this.lastBucket)
        if (t < bucket && !this.open.has(key)) this.lastBucket.delete(key);
    return closed;
  }
}
