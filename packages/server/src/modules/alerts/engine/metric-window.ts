import type { AlertOperator } from '@berth/contracts';

/** The timing of a metric rule, in milliseconds and counts. */
export interface MetricTiming {
  operator: AlertOperator;
  threshold: number;
  durationMs: number;
  occurrences: number;
  clearThreshold: number;
  clearDurationMs: number;
}

export const breaches = (value: number, op: AlertOperator, threshold: number): boolean => {
  switch (op) {
    case '>=':
      return value >= threshold;
    case '<=':
      return value <= threshold;
    case '>':
      return value > threshold;
    case '<':
      return value < threshold;
  }
};

export type MetricVerdict = 'raise' | 'clear' | 'hold';

/**
 * One rule's view of one subject's samples. The condition is met when the current sample
 * breaches, a breach episode has lasted `duration` and at least `occurrences` samples
 * within the last `duration` breached; an episode ends when a whole window passes without
 * a breach. It clears once every sample for `clearDuration` stayed on the good side of the
 * clear threshold (a sample that does not breach it).
 */
export class MetricWindow {
  /** Times of breaching samples within the window, oldest first. */
  private breachTimes: number[] = [];
  private episodeStart: number | null = null;
  private goodSince: number | null = null;

  constructor(private timing: MetricTiming) {}

  retime(timing: MetricTiming): void {
    this.timing = timing;
  }

  /** Forgets the episode (after a manual resolve, the condition must hold again in full). */
  reset(): void {
    this.breachTimes = [];
    this.episodeStart = null;
    this.goodSince = null;
  }

  /** Nothing to remember: the subject may be dropped from the rule's map. */
  get idle(): boolean {
    return this.episodeStart === null && this.breachTimes.length === 0;
  }

  sample(value: number, at: number, open: boolean): MetricVerdict {
    const t = this.timing;
    const breach = breaches(value, t.operator, t.threshold);
    const windowStart = at - t.durationMs;
    while (this.breachTimes.length > 0 && (this.breachTimes[0] ?? 0) <= windowStart)
      this.breachTimes.shift();
    if (breach) {
      this.breachTimes.push(at);
      this.episodeStart ??= at;
    } else if (this.breachTimes.length === 0) {
      this.episodeStart = null;
    }
    if (open) return this.clearVerdict(value, at);
    this.goodSince = null;
    const held = this.episodeStart !== null && at - this.episodeStart >= t.durationMs;
    return breach && held && this.breachTimes.length >= t.occurrences ? 'raise' : 'hold';
  }

  private clearVerdict(value: number, at: number): MetricVerdict {
    const t = this.timing;
    if (breaches(value, t.operator, t.clearThreshold)) {
      this.goodSince = null;
      return 'hold';
    }
    this.goodSince ??= at;
    return at - this.goodSince >= t.clearDurationMs ? 'clear' : 'hold';
  }
}
