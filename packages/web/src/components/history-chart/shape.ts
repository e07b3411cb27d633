import { METRICS_TIERS, type MetricBand, type MetricsResponse } from '@berth/contracts';
import { formatBytes, formatRate } from '@/lib/format';

/** The answer's gauges a chart can draw. */
export type GaugeField =
  | 'cpu_percent'
  | 'memory_bytes'
  | 'memory_percent'
  | 'net_rx_bytes_per_sec'
  | 'net_tx_bytes_per_sec'
  | 'block_read_bytes_per_sec'
  | 'block_write_bytes_per_sec'
  | 'disk_percent';

export type ChartUnit = 'percent' | 'bytes' | 'rate';

/** One chart: its title, the gauges it draws (one line each) and how values read. */
export interface ChartSpec {
  id: string;
  title: string;
  unit: ChartUnit;
  series: readonly { field: GaugeField; label: string; color: string }[];
  /** Fixed top of the y scale (100 for a share of something). */
  max?: number;
}

// Tailwind 400 shades; lib/theme turns each into its 700 shade on the light theme.
const SKY = '#38bdf8';
const VIOLET = '#a78bfa';
const EMERALD = '#34d399';
const AMBER = '#fbbf24';
const PINK = '#f472b6';
const CYAN = '#22d3ee';

const NETWORK: ChartSpec = {
  id: 'network',
  title: 'Network',
  unit: 'rate',
  series: [
    { field: 'net_rx_bytes_per_sec', label: 'rx', color: EMERALD },
    { field: 'net_tx_bytes_per_sec', label: 'tx', color: AMBER },
  ],
};

export const CONTAINER_CHARTS: readonly ChartSpec[] = [
  {
    id: 'cpu',
    title: 'CPU',
    unit: 'percent',
    series: [{ field: 'cpu_percent', label: 'CPU', color: SKY }],
  },
  {
    id: 'memory',
    title: 'Memory',
    unit: 'bytes',
    series: [{ field: 'memory_bytes', label: 'used', color: VIOLET }],
  },
  NETWORK,
  {
    id: 'block',
    title: 'Block I/O',
    unit: 'rate',
    series: [
      { field: 'block_read_bytes_per_sec', label: 'read', color: CYAN },
      { field: 'block_write_bytes_per_sec', label: 'write', color: PINK },
    ],
  },
];

export const HOST_CHARTS: readonly ChartSpec[] = [
  {
    id: 'cpu',
    title: 'CPU',
    unit: 'percent',
    series: [{ field: 'cpu_percent', label: 'CPU', color: SKY }],
  },
  {
    id: 'memory',
    title: 'Memory',
    unit: 'percent',
    max: 100,
    series: [{ field: 'memory_percent', label: 'used', color: VIOLET }],
  },
  {
    id: 'disk',
    title: 'Disk',
    unit: 'percent',
    max: 100,
    series: [{ field: 'disk_percent', label: 'used', color: AMBER }],
  },
  NETWORK,
];

export function formatValue(unit: ChartUnit, v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  if (unit === 'percent') return `${v.toFixed(v < 10 ? 1 : 0)}%`;
  return unit === 'bytes' ? formatBytes(v) : formatRate(v, true);
}

/**
 * Whether the answer's points were made of several samples (a rolled-up tier, or 10 s points
 * merged into a longer step): only then are min and max more than the mean, worth a band.
 */
export const isRolledUp = (answer: Pick<MetricsResponse, 'tier' | 'step'>): boolean =>
  answer.tier !== '10s' || answer.step > METRICS_TIERS[0].resolution;

/** True when no point of the answer has a value for one of the chart's gauges. */
export const chartIsEmpty = (answer: MetricsResponse, spec: ChartSpec): boolean =>
  spec.series.every((s) => answer[s.field].mean.every((v) => v === null));

/** True when no gauge of the charts has a value: "No data for this range". */
export const answerIsEmpty = (answer: MetricsResponse, specs: readonly ChartSpec[]): boolean =>
  answer.t.length === 0 || specs.every((s) => chartIsEmpty(answer, s));

/**
 * The chart's columns for uPlot: x (the points' times), then for each gauge its mean, min and
 * max (series 1 + 3i, 2 + 3i, 3 + 3i). A gap between points longer than one and a half steps
 * (the container was stopped, Berth was down) gets a point of nulls one step after the last,
 * which breaks the line instead of drawing a straight one across the gap.
 */
export function chartColumns(answer: MetricsResponse, spec: ChartSpec): (number | null)[][] {
  const bands: MetricBand[] = spec.series.map((s) => answer[s.field]);
  const x: number[] = [];
  const cols: (number | null)[][] = spec.series.flatMap(() => [[], [], []]);
  const push = (t: number, i: number | null) => {
    x.push(t);
    bands.forEach((b, k) => {
      cols[3 * k]?.push(i === null ? null : (b.mean[i] ?? null));
      cols[3 * k + 1]?.push(i === null ? null : (b.min[i] ?? null));
      cols[3 * k + 2]?.push(i === null ? null : (b.max[i] ?? null));
    });
  };
  const { t, step } = answer;
  for (let i = 0; i < t.length; i++) {
    const at = t[i] as number;
    const prev = i > 0 ? (t[i - 1] as number) : null;
    if (prev !== null && at - prev > step * 1.5) push(prev + step, null);
    push(at, i);
  }
  return [x, ...cols];
}

/** uPlot's band pairs for a chart's columns: each gauge's max down to its min. */
export const bandPairs = (spec: ChartSpec): [number, number][] =>
  spec.series.map((_, k) => [3 * k + 3, 3 * k + 2]);

/** What a hover reads at one point of a chart's columns. */
export interface Readout {
  label: string;
  mean: string;
  /** "min – max", when the point is rolled up and they differ. */
  range: string | null;
}

export function readoutAt(
  columns: readonly (readonly (number | null)[])[],
  spec: ChartSpec,
  idx: number,
  rolledUp: boolean,
): Readout[] {
  return spec.series.map((s, k) => {
    const mean = columns[1 + 3 * k]?.[idx] ?? null;
    const lo = columns[2 + 3 * k]?.[idx] ?? null;
    const hi = columns[3 + 3 * k]?.[idx] ?? null;
    const range =
      rolledUp && lo !== null && hi !== null && lo !== hi
        ? `${formatValue(spec.unit, lo)} – ${formatValue(spec.unit, hi)}`
        : null;
    return { label: s.label, mean: formatValue(spec.unit, mean), range };
  });
}

/** The last point with a value for one of the chart's gauges (the read-out when not hovering). */
export function lastIndexWithData(
  columns: readonly (readonly (number | null)[])[],
  spec: ChartSpec,
): number | null {
  const length = columns[0]?.length ?? 0;
  for (let i = length - 1; i >= 0; i--)
    if (spec.series.some((_, k) => (columns[1 + 3 * k]?.[i] ?? null) !== null)) return i;
  return null;
}

/** The y scale: from 0 to the fixed top, or a tenth above the highest value (at least 1). */
export function yRange(spec: ChartSpec, dataMax: number | null): [number, number] {
  if (spec.max !== undefined) return [0, spec.max];
  const top = dataMax === null || !Number.isFinite(dataMax) ? 0 : dataMax;
  return [0, Math.max(1, top * 1.1)];
}

/**
 * The y axis's steps between labels: for bytes and rates whole bytes (1, 2, 5 × 10ⁿ), so a
 * near-idle container's axis does not step by fractions of a byte that read the same once
 * rounded ("1 B/s" twice); percent keeps uPlot's own steps (undefined).
 */
export function yIncrements(unit: ChartUnit): number[] | undefined {
  if (unit === 'percent') return undefined;
  return Array.from({ length: 13 }, (_, n) => [1, 2, 5].map((m) => m * 10 ** n)).flat();
}

/** "10 s points", "1 min points (min–max bands)" — what the chart is drawn from. */
export function describeResolution(answer: Pick<MetricsResponse, 'tier' | 'step'>): string {
  const s = answer.step;
  const each = s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`;
  return `${each} points${isRolledUp(answer) ? ', shaded from min to max' : ''}`;
}

/**
 * Points with no neighbour to join (a single point between gaps): a line cannot show them,
 * so they are drawn as dots. Null when there are none.
 */
export function isolatedPoints(values: ArrayLike<number | null | undefined>): number[] | null {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (values[i] == null) continue;
    if (values[i - 1] == null && values[i + 1] == null) out.push(i);
  }
  return out.length > 0 ? out : null;
}
