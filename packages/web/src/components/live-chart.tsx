import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_AXES, seriesColor, useResolvedTheme } from '@/lib/theme';

interface LiveChartProps {
  title: string;
  /** Values oldest first, one every `intervalSeconds`. */
  values: readonly number[];
  intervalSeconds: number;
  color: string;
  format: (value: number) => string;
  /** Fixed top of the y scale (100 for percentages). */
  max?: number;
  height?: number;
}

const seriesData = (values: readonly number[], interval: number): uPlot.AlignedData => {
  const now = Date.now() / 1000;
  const xs = values.map((_, i) => now - (values.length - 1 - i) * interval);
  return [xs, [...values]];
};

/** Until uPlot has labels to measure, and the least it gives them. */
const MIN_AXIS_WIDTH = 48;

/**
 * The y axis as wide as its widest label: at a fixed 70 px, "976.6 KB/s" showed as "76.6 KB/s".
 * uPlot keeps an axis's font as [font, size] scaled by the device's pixel ratio.
 */
export const fitLabels: uPlot.Axis.Size = (self, values, axisIdx) => {
  const axis = self.axes[axisIdx];
  const font = (axis?.font as unknown as readonly [string] | undefined)?.[0];
  // uPlot's types say otherwise, but its first call, before any labels exist, passes null.
  const labels = values as readonly string[] | null;
  if (labels === null || font === undefined) return MIN_AXIS_WIDTH;
  self.ctx.font = font;
  const widest = Math.max(0, ...labels.map((v) => self.ctx.measureText(v).width)) / uPlot.pxRatio;
  const tick = axis?.ticks?.size ?? 10;
  return Math.max(MIN_AXIS_WIDTH, Math.ceil(widest + tick + (axis?.gap ?? 5) + 4));
};

/** A live line chart on uPlot; data updates reuse the chart instead of rebuilding it. */
export function LiveChart({
  title,
  values,
  intervalSeconds,
  color,
  format,
  max,
  height = 160,
}: LiveChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  // A canvas cannot read CSS variables: the chart is drawn again when the theme changes.
  const theme = useResolvedTheme();
  // The values last drawn, for a chart drawn again (by the effect below, which runs after).
  const latest = useRef(values);

  useEffect(() => {
    const axes = CHART_AXES[theme];
    const line = seriesColor(color, theme);
    const el = box.current;
    if (el === null) return undefined;
    const plot = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height,
        legend: { show: false },
        cursor: { show: true, points: { show: false } },
        scales: { y: { range: (_u, _min, dataMax) => [0, max ?? Math.max(1, dataMax * 1.1)] } },
        axes: [
          { stroke: axes.labels, grid: { stroke: axes.grid }, ticks: { stroke: axes.grid } },
          {
            stroke: axes.labels,
            grid: { stroke: axes.grid },
            ticks: { stroke: axes.grid },
            size: fitLabels,
            values: (_u, splits) => splits.map(format),
          },
        ],
        series: [{}, { label: title, stroke: line, width: 2, fill: `${line}22` }],
      },
      seriesData(latest.current, intervalSeconds),
      el,
    );
    chart.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
    // The chart is built once per shape; values flow in through the effect below.
  }, [title, color, theme, height, max, intervalSeconds, format]);

  useEffect(() => {
    latest.current = values;
    chart.current?.setData(seriesData(values, intervalSeconds));
  }, [values, intervalSeconds]);

  return (
    <figure className="rounded-lg border border-slate-800 bg-slate-950/40 p-3">
      <figcaption className="mb-2 flex items-baseline justify-between text-sm">
        <span className="font-medium text-slate-200">{title}</span>
        <span className="text-slate-400" data-testid={`chart-value-${title}`}>
          {values.length > 0 ? format(values[values.length - 1] ?? 0) : '—'}
        </span>
      </figcaption>
      <div ref={box} className="w-full" aria-label={`${title} chart`} role="img" />
    </figure>
  );
}
