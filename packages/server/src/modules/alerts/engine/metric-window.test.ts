import { describe, expect, it } from 'vitest';
import { MetricWindow } from './metric-window.js';

const timing = {
  operator: '>=' as const,
  threshold: 90,
  durationMs: 10_000,
  occurrences: 3,
  clearThreshold: 50,
  clearDurationMs: 4_000,
};

/** Samples every 2 s from t=0, answering each verdict. */
const feed = (w: MetricWindow, values: number[], open = false, start = 0) =>
  values.map((v, i) => w.sample(v, start + i * 2000, open));

describe('metric window (clock injected as sample times)', () => {
  it('raises only once the breach has lasted the duration with enough breaching samples', () => {
    const w = new MetricWindow(timing);
    expect(feed(w, [95, 95, 95, 95, 95, 95])).toEqual([
      'hold',
      'hold',
      'hold',
      'hold',
      'hold',
      'raise',
    ]);
  });

  it('never raises on a breach shorter than the duration, nor without the occurrences', () => {
    const w = new MetricWindow(timing);
    expect(feed(w, [95, 95, 10, 10, 10, 10, 10, 95])).not.toContain('raise');
    const sparse = new MetricWindow({ ...timing, occurrences: 4 });
    expect(feed(sparse, [95, 10, 10, 95, 10, 95, 10])).not.toContain('raise');
  });

  it('clears only after the value stayed under the clear threshold for the clear duration', () => {
    const w = new MetricWindow(timing);
    expect(feed(w, [60, 40, 40, 60, 40, 40, 40], true)).toEqual([
      'hold',
      'hold',
      'hold',
      'hold',
      'hold',
      'hold',
      'clear',
    ]);
  });

  it('honours every operator', () => {
    const w = new MetricWindow({
      ...timing,
      operator: '<',
      threshold: 10,
      durationMs: 0,
      occurrences: 1,
    });
    expect(w.sample(5, 0, false)).toBe('raise');
    expect(w.sample(15, 2000, false)).toBe('hold');
  });
});
