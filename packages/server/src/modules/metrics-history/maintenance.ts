import { nextStepSize } from '../retention/index.js';
import type { MetricsHistoryStore } from './metrics-history.store.js';
import type { Tier, TierNo } from './tiers.js';

export interface MaintenanceReport {
  /** Points written by roll-ups. */
  rolledUp: number;
  /** Points deleted by retention. */
  deleted: number;
  /** Series removed once none of their points was left. */
  seriesRemoved: number;
  steps: number;
  /** The longest time one step held the thread, ms, and which step it was. */
  longestStepMs: number;
  longestStep: string;
}

/**
 * A bucket is rolled up this long after it ended: the 10 s points of its last seconds are
 * written after their bucket closed (one stats pass later, 10 s when nobody watches).
 */
const LAG_S = 120;
/**
 * Series one roll-up step reads a bucket of, at first; then sized from the last step's time
 * (toward the events retention's few milliseconds a step). A 1 min bucket is 6 points of a
 * series, a 15 min one 15: 350 series of a 15 min bucket in one step held up to 230 ms.
 */
const FIRST_SERIES: Record<1 | 2, number> = { 1: 200, 2: 80 };
const MIN_SERIES = 5;
const MAX_SERIES = 5000;
/** Seconds of a tier one retention step deletes at first (350 series: ~2,100, 3,500, 2,800 rows). */
const FIRST_WINDOW_S: Record<TierNo, number> = { 0: 60, 1: 600, 2: 7200 };
/** The most a retention window grows to: 8 times its first size. */
const WINDOW_GROWTH = 8;

/**
 * Roll-ups (10 s → 1 min → 15 min: min, weighted mean, max) and retention, in bounded steps,
 * resting between steps like the events retention. Each step's size comes from the last one's
 * time: a roll-up step is one bucket of a batch of series, a retention step a window of time.
 * A watermark per tier says how far it is rolled up, so a restart goes on where it stopped
 * and nothing is rolled up twice (a bucket cut short by a stop is done again; its points
 * written already are kept, not doubled).
 */
export class Maintenance {
  private stopped = false;
  private readonly series: Record<1 | 2, number> = { ...FIRST_SERIES };
  private readonly window: Record<TierNo, number> = { ...FIRST_WINDOW_S };

  constructor(
    private readonly store: MetricsHistoryStore,
    /** The tiers as set now: a retention changed in the settings applies at the next round. */
    private readonly tiers: () => readonly [Tier, Tier, Tier],
    private readonly rest: (tookMs: number) => Promise<void>,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  /** Read anew each time: a stop comes in while a step awaits. */
  private halted(): boolean {
    return this.stopped;
  }

  async run(nowS: number, writing: ReadonlySet<number>): Promise<MaintenanceReport> {
    const report: MaintenanceReport = {
      rolledUp: 0,
      deleted: 0,
      seriesRemoved: 0,
      steps: 0,
      longestStepMs: 0,
      longestStep: '',
    };
    const tiers = this.tiers();
    for (const tier of [tiers[1], tiers[2]]) await this.rollup(tier, nowS, report);
    for (const tier of tiers) await this.prune(tier, nowS, report);
    if (report.deleted > 0 && !this.stopped)
      report.seriesRemoved = (
        await this.step(report, 'series', () => this.store.pruneEmptySeries(writing))
      ).result;
    return report;
  }

  private async rollup(tier: Tier, nowS: number, report: MaintenanceReport): Promise<void> {
    const no = tier.no as 1 | 2;
    const source = (no - 1) as TierNo;
    const res = tier.resolution;
    const align = (t: number) => Math.floor(t / res) * res;
    const target = align(nowS - LAG_S);
    let from = await this.store.doneUntil(no);
    while (!this.stopped && (from === null || from < target)) {
      // The next source point: the empty time before it (a long stop, a first run) is skipped.
      const next = await this.store.oldest(source, from ?? undefined);
      if (next === null || align(next) >= target) {
        await this.store.setDoneUntil(no, target);
        return;
      }
      const start = Math.max(from ?? 0, align(next));
      const end = start + res;
      const { result: series, took } = await this.step(report, `list ${tier.id}`, () =>
        this.store.seriesIn(source, start, end),
      );
      await this.rest(took);
      for (let i = 0; i < series.length && !this.halted();) {
        const size = this.series[no];
        const batch = series.slice(i, i + size);
        const done = await this.step(report, `rollup ${tier.id}`, () =>
          this.store.rollup(no, res, start, end, batch),
        );
        report.rolledUp += done.result;
        this.series[no] = nextStepSize(
          size,
          batch.length === size,
          done.took,
          MIN_SERIES,
          MAX_SERIES,
        );
        i += batch.length;
        await this.rest(done.took);
      }
      // A bucket cut short by a stop is done again at the next start.
      if (this.halted()) return;
      await this.store.setDoneUntil(no, end);
      from = end;
    }
  }

  private async prune(tier: Tier, nowS: number, report: MaintenanceReport): Promise<void> {
    if (tier.keepS <= 0) return; // 0: kept for ever
    const cutoff = nowS - tier.keepS;
    const min = tier.resolution;
    const max = FIRST_WINDOW_S[tier.no] * WINDOW_GROWTH;
    while (!this.stopped) {
      const oldest = await this.store.oldest(tier.no);
      if (oldest === null || oldest >= cutoff) return;
      const window = this.window[tier.no];
      const end = Math.min(cutoff, oldest + window);
      const done = await this.step(report, `prune ${tier.id}`, () =>
        this.store.deleteRange(tier.no, oldest, end),
      );
      report.deleted += done.result;
      // A window cut by the cutoff says nothing about a full one's time.
      this.window[tier.no] = nextStepSize(window, end < cutoff, done.took, min, max);
      await this.rest(done.took);
    }
  }

  /** Runs one step and answers its result and how long it held the thread. */
  private async step<T>(
    report: MaintenanceReport,
    kind: string,
    work: () => Promise<T>,
  ): Promise<{ result: T; took: number }> {
    const started = performance.now();
    const result = await work();
    const took = performance.now() - started;
    report.steps++;
    if (took > report.longestStepMs) {
      report.longestStepMs = took;
      report.longestStep = kind;
    }
    return { result, took };
  }
}
