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
 * Seconds of the source tier one roll-up step reads: one bucket of the tier made (350 series:
 * ~2,100 and ~5,250 rows). Five minutes of 10 s points at once took 20 ms a step in
 * bench/history and up to 400 ms on a busy machine.
 */
const ROLLUP_WINDOW_S: Record<1 | 2, number> = { 1: 60, 2: 900 };
/** Seconds of a tier one retention step deletes (300 series: ~1,800, 3,000, 2,400 rows). */
const DELETE_WINDOW_S: Record<TierNo, number> = { 0: 60, 1: 600, 2: 7200 };

/**
 * Roll-ups (10 s → 1 min → 15 min: min, weighted mean, max) and retention, each in steps of a
 * bounded window of time, resting between steps like the events retention. A watermark per
 * tier says how far it is rolled up, so a restart goes on where it stopped and nothing is
 * rolled up twice.
 */
export class Maintenance {
  private stopped = false;

  constructor(
    private readonly store: MetricsHistoryStore,
    private readonly tiers: readonly [Tier, Tier, Tier],
    private readonly rest: (tookMs: number) => Promise<void>,
  ) {}

  stop(): void {
    this.stopped = true;
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
    for (const tier of [this.tiers[1], this.tiers[2]]) await this.rollup(tier, nowS, report);
    for (const tier of this.tiers) await this.prune(tier, nowS, report);
    if (report.deleted > 0 && !this.stopped)
      report.seriesRemoved = await this.step(report, 'series', () =>
        this.store.pruneEmptySeries(writing),
      );
    return report;
  }

  private async rollup(tier: Tier, nowS: number, report: MaintenanceReport): Promise<void> {
    const no = tier.no as 1 | 2;
    const res = tier.resolution;
    const align = (t: number) => Math.floor(t / res) * res;
    const target = align(nowS - LAG_S);
    let from = await this.store.doneUntil(no);
    const oldest = await this.store.oldest((no - 1) as TierNo);
    if (oldest === null) return;
    // A first run starts at the oldest source point; after a long stop, it skips the empty time.
    if (from === null || from < align(oldest)) from = align(oldest);
    while (!this.stopped && from < target) {
      const end = Math.min(target, from + Math.max(res, ROLLUP_WINDOW_S[no]));
      const start = from;
      report.rolledUp += await this.step(report, `rollup ${tier.id}`, async () => {
        const n = await this.store.rollup(no, res, start, end);
        await this.store.setDoneUntil(no, end);
        return n;
      });
      from = end;
    }
  }

  private async prune(tier: Tier, nowS: number, report: MaintenanceReport): Promise<void> {
    if (tier.keepS <= 0) return; // 0: kept for ever
    const cutoff = nowS - tier.keepS;
    while (!this.stopped) {
      const oldest = await this.store.oldest(tier.no);
      if (oldest === null || oldest >= cutoff) return;
      const end = Math.min(cutoff, oldest + DELETE_WINDOW_S[tier.no]);
      report.deleted += await this.step(report, `prune ${tier.id}`, () =>
        this.store.deleteRange(tier.no, oldest, end),
      );
    }
  }

  private async step(
    report: MaintenanceReport,
    kind: string,
    work: () => Promise<number>,
  ): Promise<number> {
    const started = performance.now();
    const n = await work();
    const took = performance.now() - started;
    report.steps++;
    if (took > report.longestStepMs) {
      report.longestStepMs = took;
      report.longestStep = kind;
    }
    await this.rest(took);
    return n;
  }
}
