import { setTimeout as sleep } from 'node:timers/promises';
import type { MetricsQuery, MetricsResponse } from '@berth/contracts';
import { notFound } from '../../platform/http-errors.js';
import type { Fleet } from '../monitor/index.js';
import { Maintenance, type MaintenanceReport } from './maintenance.js';
import type { MetricsHistoryStore, PointRow } from './metrics-history.store.js';
import { toResponse } from './points.js';
import { Sampler, type ClosedPoint, type SampledFleet } from './sampler.js';
import {
  DEFAULT_RETENTION,
  planQuery,
  tiersOf,
  type HistoryRetention,
  type TierNo,
} from './tiers.js';

export interface MetricsHistoryDeps {
  store: MetricsHistoryStore;
  fleet: SampledFleet &
    Pick<Fleet, 'host' | 'container'> & {
      /** Each stats pass's end (the monitor's `statsSampled`). */
      on(event: 'statsSampled', listener: () => void): () => void;
    };
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  /**
   * Hours each tier keeps, read at every maintenance round and query (the settings' values:
   * a change applies at the next round). Default: the contract's.
   */
  retention?: HistoryRetention | (() => HistoryRetention);
  /** Wall clock and monotonic clock, ms (mocked in tests and bench/history). */
  now?: () => number;
  mono?: () => number;
  /** Between two maintenance steps (default: rest as long as the step took, up to 50 ms). */
  rest?: (tookMs: number) => Promise<void>;
}

/** Roll-ups and retention run this often. */
const MAINTAIN_EVERY_MS = 60_000;
/** A write failure is logged at most this often. */
const FAILURE_LOG_MS = 60_000;
/** Points waiting for a write at most (a stuck write must not grow memory without end). */
const MAX_PENDING = 100_000;

const isDiskFull = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err && err.code === 'SQLITE_FULL';

/**
 * Metrics history (decision 036): every stats pass of the monitor is sampled into 10 s points,
 * written in one batch per pass after the pass (never on a request's path); roll-ups and
 * retention run each minute in bounded steps. A failed write (a full disk) drops that batch,
 * is logged once a minute, and the next batch tries again: live monitoring never waits on it.
 */
export class MetricsHistoryService {
  private readonly sampler: Sampler;
  private readonly maintenance: Maintenance;
  private readonly retention: () => HistoryRetention;
  private readonly now: () => number;
  private pending: ClosedPoint[] = [];
  private flushing: Promise<void> | null = null;
  private readonly ids = new Map<string, number>();
  private failures = { count: 0, dropped: 0, loggedAt: Number.NEGATIVE_INFINITY };
  private off: (() => void) | null = null;
  private timer: NodeJS.Timeout | undefined;
  private maintaining: Promise<MaintenanceReport> | null = null;

  constructor(private readonly deps: MetricsHistoryDeps) {
    this.now = deps.now ?? Date.now;
    const mono = deps.mono ?? (() => performance.now());
    const retention = deps.retention ?? DEFAULT_RETENTION;
    this.retention = typeof retention === 'function' ? retention : () => retention;
    this.sampler = new Sampler(deps.fleet, { now: this.now, mono }, this.tiers()[0].resolution);
    this.maintenance = new Maintenance(
      deps.store,
      () => this.tiers(),
      deps.rest ?? ((took) => sleep(Math.min(50, Math.max(1, took)))),
    );
  }

  start(): void {
    this.off = this.deps.fleet.on('statsSampled', () => this.sampleNow());
    this.timer = setInterval(() => this.maintainLogged(), MAINTAIN_EVERY_MS);
    this.timer.unref();
    this.maintainLogged();
  }

  /** Stops sampling; the open buckets are written. */
  async stop(): Promise<void> {
    this.off?.();
    this.off = null;
    clearInterval(this.timer);
    this.maintenance.stop();
    this.pending.push(...this.sampler.drain());
    await this.flush();
    await this.maintaining?.catch(() => undefined);
  }

  /** Samples the pass that just ended and schedules the write. */
  sampleNow(): void {
    this.pending.push(...this.sampler.sample());
    if (this.pending.length > MAX_PENDING)
      this.pending.splice(0, this.pending.length - MAX_PENDING);
    if (this.pending.length > 0 && this.flushing === null)
      setImmediate(() => {
        // write() logs its own failures; this keeps a surprise off the process.
        this.flush().catch((err: unknown) => this.deps.log.error({ err }, 'metrics history write'));
      });
  }

  /** Writes what is waiting; a write under way is joined. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** One round of roll-ups and retention (joined when one runs). */
  maintain(): Promise<MaintenanceReport> {
    this.maintaining ??= this.maintenance
      .run(Math.floor(this.now() / 1000), new Set(this.ids.values()))
      .finally(() => {
        this.maintaining = null;
      });
    return this.maintaining;
  }

  /** A host's series (containerId null) or a container's, by current id or by name. */
  async query(
    hostId: string,
    containerId: string | null,
    q: MetricsQuery,
  ): Promise<MetricsResponse> {
    const nowS = Math.floor(this.now() / 1000);
    const to = q.to === undefined ? nowS : Math.floor(Date.parse(q.to) / 1000);
    const from = q.from === undefined ? to - 3600 : Math.floor(Date.parse(q.from) / 1000);
    const plan = planQuery(this.tiers(), nowS, from, to, q.step);
    const name =
      containerId === null
        ? ''
        : (this.deps.fleet.container(hostId, containerId)?.name ?? containerId);
    const seriesId = await this.deps.store.findSeries(hostId, name);
    if (seriesId === undefined) {
      if (containerId !== null) throw notFound('Container not found');
      if (this.deps.fleet.host(hostId) === undefined) throw notFound('Host not found');
    }
    // From the start of the bucket holding `from`, so its point is not cut off.
    const start = Math.floor(from / plan.step) * plan.step;
    const rows: PointRow[] =
      seriesId === undefined ? [] : await this.pointsWithTail(seriesId, plan.tier.no, start, to);
    return toResponse(rows, {
      hostId,
      containerName: containerId === null ? null : name,
      tier: plan.tier.id,
      step: plan.step,
      from,
      to,
    });
  }

  /**
   * A tier's points, then the finer tiers' for the time it has not been rolled up to yet: a
   * roll-up waits for its bucket to close, so without them a day's newest minutes, or a
   * container younger than its first roll-up, would be missing from a coarser tier's answer.
   * The answer's step is a whole multiple of every finer resolution, so they merge into it.
   */
  private async pointsWithTail(
    seriesId: number,
    tier: TierNo,
    from: number,
    to: number,
  ): Promise<PointRow[]> {
    const rows = await this.deps.store.points(seriesId, tier, from, to);
    if (tier === 0) return rows;
    const last = rows.at(-1);
    const after = last === undefined ? from : last.t + this.tiers()[tier].resolution;
    if (after > to) return rows;
    const tail = await this.pointsWithTail(seriesId, (tier - 1) as TierNo, after, to);
    return tail.length === 0 ? rows : rows.concat(tail);
  }

  /** The tiers with the retention as it is set now. */
  private tiers() {
    return tiersOf(this.retention());
  }

  private async write(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        const rows: PointRow[] = [];
        for (const p of batch) rows.push(await this.rowOf(p));
        await this.deps.store.insertPoints(rows);
        if (this.failures.count > 0) {
          this.deps.log.info({ dropped: this.failures.dropped }, 'metrics history writes again');
          this.failures = { count: 0, dropped: 0, loggedAt: Number.NEGATIVE_INFINITY };
        }
      } catch (err) {
        this.failed(err, batch.length);
      }
    }
  }

  private failed(err: unknown, points: number): void {
    const f = this.failures;
    f.count++;
    f.dropped += points;
    const at = this.now();
    if (at - f.loggedAt < FAILURE_LOG_MS && at >= f.loggedAt) return;
    f.loggedAt = at;
    const msg = isDiskFull(err)
      ? 'metrics history: the disk is full, points are dropped until it has room (live monitoring goes on)'
      : 'metrics history: a write failed, its points are dropped';
    this.deps.log.warn({ err, dropped: f.dropped, failures: f.count }, msg);
  }

  private async rowOf(p: ClosedPoint): Promise<PointRow> {
    const key = `${p.hostId}\0${p.name}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = await this.deps.store.seriesId(p.hostId, p.name, p.containerId);
      this.ids.set(key, id);
    }
    const row = { tier: 0, series_id: id, t: p.t, n: p.n, restarts: p.restarts, health: p.health };
    const v = p.values;
    return {
      ...row,
      ...{ cpu: v.cpu, mem: v.mem, mem_pct: v.mem_pct, rx: v.rx, tx: v.tx },
      ...{ br: v.br, bw: v.bw, disk: v.disk },
      ...{ cpu_lo: null, cpu_hi: null, mem_lo: null, mem_hi: null, mem_pct_lo: null },
      ...{ mem_pct_hi: null, rx_lo: null, rx_hi: null, tx_lo: null, tx_hi: null },
      ...{ br_lo: null, br_hi: null, bw_lo: null, bw_hi: null, disk_lo: null, disk_hi: null },
    };
  }

  private maintainLogged(): void {
    if (this.maintaining !== null) return;
    this.maintain().then(
      (report) => {
        if (report.rolledUp + report.deleted > 0)
          this.deps.log.info({ history: report }, 'metrics history maintained');
      },
      (err: unknown) => this.deps.log.error({ err }, 'metrics history maintenance failed'),
    );
  }
}
