import type { MetricBand, MetricsResponse } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import {
  answerIsEmpty,
  bandPairs,
  chartColumns,
  chartIsEmpty,
  CONTAINER_CHARTS,
  describeResolution,
  formatValue,
  yIncrements,
  HOST_CHARTS,
  isolatedPoints,
  isRolledUp,
  lastIndexWithData,
  readoutAt,
  yRange,
  type ChartSpec,
} from './shape';

const none = (n: number): MetricBand => ({
  min: Array<null>(n).fill(null),
  mean: Array<null>(n).fill(null),
  max: Array<null>(n).fill(null),
});

function answer(t: number[], over: Partial<MetricsResponse> = {}): MetricsResponse {
  const n = t.length;
  return {
    host_id: 'h1',
    container_name: 'web',
    tier: '10s',
    step: 10,
    from: '2026-12-04T00:00:00.000Z',
    to: '2026-12-04T01:00:00.000Z',
    t,
    cpu_percent: none(n),
    memory_bytes: none(n),
    memory_percent: none(n),
    net_rx_bytes_per_sec: none(n),
    net_tx_bytes_per_sec: none(n),
    block_read_bytes_per_sec: none(n),
    block_write_bytes_per_sec: none(n),
    disk_percent: none(n),
    restarts: Array<null>(n).fill(null),
    health: Array<null>(n).fill(null),
    ...over,
  };
}

const cpu = CONTAINER_CHARTS.find((c) => c.id === 'cpu') as ChartSpec;
const network = CONTAINER_CHARTS.find((c) => c.id === 'network') as ChartSpec;
const block = CONTAINER_CHARTS.find((c) => c.id === 'block') as ChartSpec;

describe('chartColumns', () => {
  it('lays out x, then mean, min and max per gauge', () => {
    const a = answer([0, 10], {
      net_rx_bytes_per_sec: { min: [1, 2], mean: [3, 4], max: [5, 6] },
      net_tx_bytes_per_sec: { min: [7, 8], mean: [9, 10], max: [11, 12] },
    });
    expect(chartColumns(a, network)).toEqual([
      [0, 10],
      [3, 4],
      [1, 2],
      [5, 6],
      [9, 10],
      [7, 8],
      [11, 12],
    ]);
    // The band of each gauge runs from its max down to its min.
    expect(bandPairs(network)).toEqual([
      [3, 2],
      [6, 5],
    ]);
  });

  it('breaks the line across a gap with one point of nulls a step after the last', () => {
    const a = answer([0, 10, 60, 70], {
      cpu_percent: { min: [1, 1, 1, 1], mean: [1, 2, 3, 4], max: [1, 2, 3, 4] },
    });
    const [x, mean, min] = chartColumns(a, cpu);
    expect(x).toEqual([0, 10, 20, 60, 70]);
    expect(mean).toEqual([1, 2, null, 3, 4]);
    expect(min).toEqual([1, 1, null, 1, 1]);
  });

  it('keeps points one and a half steps apart joined (a late sample, not a gap)', () => {
    const a = answer([0, 15], { cpu_percent: { min: [1, 1], mean: [1, 1], max: [1, 1] } });
    expect(chartColumns(a, cpu)[0]).toEqual([0, 15]);
  });
});

describe('empty answers', () => {
  it('an answer without points is empty for every chart', () => {
    expect(answerIsEmpty(answer([]), CONTAINER_CHARTS)).toBe(true);
  });

  it('block I/O not sampled yet is one empty chart, not an empty answer', () => {
    const a = answer([0], { cpu_percent: { min: [5], mean: [5], max: [5] } });
    expect(chartIsEmpty(a, block)).toBe(true);
    expect(chartIsEmpty(a, cpu)).toBe(false);
    expect(answerIsEmpty(a, CONTAINER_CHARTS)).toBe(false);
    // A host's charts read its own gauges: disk without CPU still draws.
    const disk = answer([0], { disk_percent: { min: [40], mean: [41], max: [42] } });
    expect(answerIsEmpty(disk, HOST_CHARTS)).toBe(false);
    expect(answerIsEmpty(disk, CONTAINER_CHARTS)).toBe(true);
  });
});

describe('bands and read-outs', () => {
  it('a band only where the points are made of several samples', () => {
    expect(isRolledUp({ tier: '10s', step: 10 })).toBe(false);
    expect(isRolledUp({ tier: '10s', step: 30 })).toBe(true);
    expect(isRolledUp({ tier: '1m', step: 60 })).toBe(true);
    expect(isRolledUp({ tier: '15m', step: 900 })).toBe(true);
    expect(describeResolution({ tier: '10s', step: 10 })).toBe('10 s points');
    expect(describeResolution({ tier: '15m', step: 900 })).toBe(
      '15 min points, shaded from min to max',
    );
    expect(describeResolution({ tier: '15m', step: 7200 })).toMatch(/^2 h points/);
  });

  it('reads the mean, and min – max when rolled up and different', () => {
    const a = answer([0, 60], {
      tier: '1m',
      step: 60,
      cpu_percent: { min: [1, 2], mean: [2.5, 2], max: [40, 2] },
    });
    const cols = chartColumns(a, cpu);
    expect(readoutAt(cols, cpu, 0, true)).toEqual([
      { label: 'CPU', mean: '2.5%', range: '1.0% – 40%' },
    ]);
    expect(readoutAt(cols, cpu, 1, true)).toEqual([{ label: 'CPU', mean: '2.0%', range: null }]);
    expect(readoutAt(cols, cpu, 0, false)[0]?.range).toBeNull();
  });

  it('reads the last point that has data when not hovering', () => {
    const a = answer([0, 10, 20], {
      cpu_percent: { min: [1, 2, null], mean: [1, 2, null], max: [1, 2, null] },
    });
    expect(lastIndexWithData(chartColumns(a, cpu), cpu)).toBe(1);
    expect(lastIndexWithData(chartColumns(answer([]), cpu), cpu)).toBeNull();
  });

  it('formats each unit and scales y from zero', () => {
    expect(formatValue('percent', 3.14)).toBe('3.1%');
    expect(formatValue('percent', 73.6)).toBe('74%');
    expect(formatValue('bytes', 5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatValue('rate', 2048)).toBe('2.0 KB/s');
    expect(formatValue('rate', null)).toBe('—');
    expect(yRange(cpu, 50)[1]).toBeCloseTo(55);
    expect(yRange(cpu, null)).toEqual([0, 1]);
    expect(yRange({ ...cpu, max: 100 }, 500)).toEqual([0, 100]);
  });

  it('steps a byte axis by whole bytes, so no two labels read the same', () => {
    const steps = yIncrements('rate') ?? [];
    expect(Math.min(...steps)).toBe(1);
    expect(steps.slice(0, 4)).toEqual([1, 2, 5, 10]);
    expect(yIncrements('bytes')).toEqual(steps);
    expect(yIncrements('percent')).toBeUndefined();
  });
});

describe('isolatedPoints', () => {
  it('finds the points a line cannot show: no neighbour with a value', () => {
    expect(isolatedPoints([5])).toEqual([0]);
    expect(isolatedPoints([1, 2, null, 3, null, null, 4, 5])).toEqual([3]);
    expect(isolatedPoints([null, 1, 2])).toBeNull();
    expect(isolatedPoints([])).toBeNull();
  });
});
