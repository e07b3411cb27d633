import type { MetricsResponse } from '@berth/contracts';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { fitLabels } from '@/components/live-chart';
import { CHART_AXES, seriesColor, useResolvedTheme, type ResolvedTheme } from '@/lib/theme';
import { formatStamp } from '@/lib/format';
import { MARKER_COLORS, MARKER_LABELS, nearestMarker, type Marker } from './markers';
import { zoomWindow, type TimeWindow } from './range';
import {
  bandPairs,
  chartColumns,
  chartIsEmpty,
  formatValue,
  yIncrements,
  isolatedPoints,
  isRolledUp,
  lastIndexWithData,
  readoutAt,
  yRange,
  type ChartSpec,
} from './shape';

interface HistoryChartProps {
  spec: ChartSpec;
  answer: MetricsResponse;
  /** The x scale: the whole window asked for, so a quiet start shows as empty time. */
  window: TimeWindow;
  markers: readonly Marker[];
  /** Charts with one key share the hover (uPlot's cursor sync). */
  syncKey: string;
  onZoom: (w: TimeWindow) => void;
  onZoomOut: () => void;
  height?: number;
}

/** How near (CSS px) a hover must come to a marker to read it. */
const MARKER_REACH_PX = 6;

const timeOf = (t: number) => formatStamp(new Date(t * 1000).toISOString());

/**
 * One history chart: each gauge's mean as a line and, when the points are rolled up, a band
 * from its min to its max; markers for events as dashed lines with a tick on the time axis; a
 * hover read-out above the plot (shared with the other charts of the panel); drag to zoom.
 */
export function HistoryChart(props: HistoryChartProps) {
  const { spec, answer } = props;
  const columns = useMemo(() => chartColumns(answer, spec), [answer, spec]);
  const rolledUp = isRolledUp(answer);
  const [hover, setHover] = useState<{ idx: number; marker: Marker | null } | null>(null);
  const empty = chartIsEmpty(answer, spec);
  const idx = hover?.idx ?? lastIndexWithData(columns, spec);
  const at = idx === null ? null : (columns[0]?.[idx] ?? null);
  return (
    <figure
      className="min-w-0 rounded-lg border border-slate-800 bg-slate-950/40 p-3"
      data-testid={`history-chart-${spec.id}`}
    >
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
        <span className="font-medium text-slate-200">{spec.title}</span>
        {!empty && (
          <span
            className="flex flex-wrap gap-x-3 text-xs text-slate-400 tabular-nums"
            data-testid={`history-readout-${spec.id}`}
            aria-live="off"
          >
            {at !== null && <span>{timeOf(at)}</span>}
            {idx !== null &&
              readoutAt(columns, spec, idx, rolledUp).map((r) => (
                <span key={r.label}>
                  {spec.series.length > 1 || spec.series[0]?.label !== spec.title
                    ? `${r.label} `
                    : ''}
                  <span className="text-slate-200">{r.mean}</span>
                  {r.range !== null && <span> ({r.range})</span>}
                </span>
              ))}
            {hover?.marker != null && (
              <span className="text-slate-200" data-testid={`history-marker-readout-${spec.id}`}>
                {MARKER_LABELS[hover.marker.kind]}: {hover.marker.title}
              </span>
            )}
          </span>
        )}
      </figcaption>
      {empty ? (
        <p
          className="flex items-center justify-center rounded-md border border-dashed border-slate-800 text-sm text-slate-400"
          style={{ height: props.height ?? 160 }}
        >
          No data for this range
        </p>
      ) : (
        <Plot {...props} columns={columns} onHover={setHover} />
      )}
    </figure>
  );
}

interface PlotProps extends HistoryChartProps {
  columns: (number | null)[][];
  onHover: (hover: { idx: number; marker: Marker | null } | null) => void;
}

function Plot({
  spec,
  columns,
  window: w,
  markers,
  syncKey,
  onZoom,
  onZoomOut,
  onHover,
  height = 160,
}: PlotProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const theme = useResolvedTheme();
  // What the chart's hooks read; the chart is built once per shape and theme.
  const live = useRef({ columns, w, markers, onZoom, onZoomOut, onHover });
  // Before the effects below, which build the chart and hand it data.
  useLayoutEffect(() => {
    live.current = { columns, w, markers, onZoom, onZoomOut, onHover };
  });

  useEffect(() => {
    const el = box.current;
    if (el === null) return undefined;
    const plot = new uPlot(
      options(spec, theme, height, syncKey, el, live),
      live.current.columns as uPlot.AlignedData,
      el,
    );
    const select = plot.root.querySelector<HTMLElement>('.u-select');
    if (select !== null) select.style.background = theme === 'light' ? '#0369a122' : '#38bdf833';
    // A double click goes back one zoom, as uPlot's own zoom does.
    const back = () => live.current.onZoomOut();
    plot.over.addEventListener('dblclick', back);
    chart.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      plot.over.removeEventListener('dblclick', back);
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, [spec, theme, height, syncKey]);

  useEffect(() => {
    chart.current?.setData(columns as uPlot.AlignedData);
  }, [columns, w]);
  useEffect(() => {
    chart.current?.redraw(false);
  }, [markers]);

  return (
    <div
      ref={box}
      className="w-full touch-pan-y"
      role="img"
      aria-label={`${spec.title} history chart`}
      data-testid={`history-plot-${spec.id}`}
    />
  );
}

type Live = React.RefObject<{
  columns: (number | null)[][];
  w: TimeWindow;
  markers: readonly Marker[];
  onZoom: (w: TimeWindow) => void;
  onZoomOut: () => void;
  onHover: PlotProps['onHover'];
}>;

function options(
  spec: ChartSpec,
  theme: ResolvedTheme,
  height: number,
  syncKey: string,
  el: HTMLElement,
  live: Live,
): uPlot.Options {
  const axes = CHART_AXES[theme];
  const increments = yIncrements(spec.unit);
  const series: uPlot.Series[] = [{}];
  for (const s of spec.series) {
    const color = seriesColor(s.color, theme);
    series.push({
      label: s.label,
      stroke: color,
      width: 2,
      points: {
        show: false,
        size: 5,
        fill: color,
        filter: (u, i) => isolatedPoints(u.data[i] ?? []),
      },
    });
    // The band's edges: drawn by the band's fill only.
    const edge = { stroke: 'transparent', width: 0, points: { show: false } };
    series.push({ label: `${s.label} min`, ...edge }, { label: `${s.label} max`, ...edge });
  }
  const bands: uPlot.Band[] = bandPairs(spec).map((pair, k) => ({
    series: pair,
    fill: `${seriesColor(spec.series[k]?.color ?? '#38bdf8', theme)}33`,
  }));
  return {
    width: Math.max(200, el.clientWidth),
    height,
    legend: { show: false },
    series,
    bands,
    cursor: {
      // The hover is shared; a drag is not (each chart would zoom once more for it).
      sync: {
        key: syncKey,
        filters: { pub: (type) => type !== 'mousedown' && type !== 'mouseup' },
      },
      drag: { x: true, y: false, setScale: false },
      // A time read-out: the vertical line only.
      y: false,
      points: { show: false },
    },
    scales: {
      x: { time: true, range: () => [live.current.w.from, live.current.w.to] },
      y: { range: (_u, _min, max) => yRange(spec, max) },
    },
    axes: [
      { stroke: axes.labels, grid: { stroke: axes.grid }, ticks: { stroke: axes.grid } },
      {
        stroke: axes.labels,
        grid: { stroke: axes.grid },
        ticks: { stroke: axes.grid },
        size: fitLabels,
        values: (_u, splits) => splits.map((v) => formatValue(spec.unit, v)),
        ...(increments === undefined ? {} : { incrs: increments }),
      },
    ],
    hooks: {
      setCursor: [(u) => hovered(u, live)],
      setSelect: [(u) => selected(u, live)],
      draw: [(u) => drawMarkers(u, live.current.markers, theme)],
    },
  };
}

function hovered(u: uPlot, live: Live): void {
  const { idx, left } = u.cursor;
  if (idx === null || idx === undefined || left === undefined || left < 0) {
    live.current.onHover(null);
    return;
  }
  const span = (u.scales.x?.max ?? 0) - (u.scales.x?.min ?? 0);
  const width = u.bbox.width / uPlot.pxRatio;
  const tolerance = width > 0 ? (span / width) * MARKER_REACH_PX : 0;
  const marker = nearestMarker(live.current.markers, u.posToVal(left, 'x'), tolerance);
  live.current.onHover({ idx, marker });
}

function selected(u: uPlot, live: Live): void {
  const { left, width } = u.select;
  if (width < 3) return;
  const z = zoomWindow(live.current.w, u.posToVal(left, 'x'), u.posToVal(left + width, 'x'));
  u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
  if (z !== null) live.current.onZoom(z);
}

/** A dashed line per marker across the plot and a small triangle on the time axis. */
function drawMarkers(u: uPlot, markers: readonly Marker[], theme: ResolvedTheme): void {
  if (markers.length === 0) return;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const px = uPlot.pxRatio;
  ctx.save();
  for (const m of markers) {
    const x = Math.round(u.valToPos(m.t, 'x', true));
    if (x < left || x > left + width) continue;
    const color = seriesColor(MARKER_COLORS[m.kind], theme);
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.lineWidth = (m.severe ? 2 : 1) * px;
    ctx.setLineDash([3 * px, 3 * px]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + height);
    ctx.stroke();
    const s = 5 * px;
    ctx.beginPath();
    ctx.moveTo(x, top + height - s * 1.4);
    ctx.lineTo(x - s, top + height);
    ctx.lineTo(x + s, top + height);
    ctx.closePath();
    ctx.fill();
  }
  ctx.restore();
}
