import { LineChart } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useBreakpoint } from '@/hooks/use-breakpoint';
import { ApiError } from '@/lib/api-client';
import { formatStamp } from '@/lib/format';
import { seriesColor, useResolvedTheme } from '@/lib/theme';
import { HistoryChart } from './history-chart';
import { useHistoryMarkers, useMetricsHistory, type HistoryTarget } from './history-queries';
import { MARKER_COLORS, MARKER_LABELS, type Marker, type MarkerTarget } from './markers';
import { RangePicker } from './range-picker';
import {
  describeWindow,
  stepOf,
  tickOf,
  windowOf,
  type RangeChoice,
  type TimeWindow,
} from './range';
import { answerIsEmpty, describeResolution, type ChartSpec } from './shape';

/** The newest markers listed under the charts (all of them are drawn). */
const LISTED_MARKERS = 20;

/** The chosen range and the moment its window was computed (moved on each tick of a preset). */
interface View {
  choice: RangeChoice;
  now: number;
  /** Drag zooms, innermost last; "Zoom out" takes one off. */
  zooms: TimeWindow[];
}

/**
 * A host's or a container's metrics history: a range picker, one chart per spec sharing a
 * hover and the zoom, and the window's alerts and container events as markers.
 */
export function HistoryPanel({
  target,
  markerTarget,
  charts,
}: {
  target: HistoryTarget;
  markerTarget: MarkerTarget;
  charts: readonly ChartSpec[];
}) {
  const [view, setView] = useState<View>(() => ({
    choice: { kind: 'preset', preset: '1h' },
    now: Date.now(),
    zooms: [],
  }));
  // A preset's window moves on with time; a custom or zoomed one stays put.
  const tick = view.zooms.length === 0 ? tickOf(view.choice) : null;
  useEffect(() => {
    if (tick === null) return undefined;
    const timer = setInterval(() => setView((v) => ({ ...v, now: Date.now() })), tick * 1000);
    return () => clearInterval(timer);
  }, [tick]);
  const base = windowOf(view.choice, view.now);
  const w = view.zooms.at(-1) ?? base;
  // A zoom lets the server pick: its window is narrower than the preset's.
  const history = useMetricsHistory(
    target,
    w,
    view.zooms.length === 0 ? stepOf(view.choice) : undefined,
  );
  const markers = useHistoryMarkers(markerTarget, w).data ?? [];
  const syncKey = useId();
  const phone = useBreakpoint() === 'phone';
  const answer = history.data;
  // A container the dialog shows but with no series yet (it has never run since Berth knew
  // it) is a 404 to the API; to a person it is simply no data.
  const neverRecorded =
    target.containerId !== null &&
    history.error instanceof ApiError &&
    history.error.status === 404;
  const zoomed = view.zooms.length > 0;

  const choose = (choice: RangeChoice) => setView({ choice, now: Date.now(), zooms: [] });
  const zoom = (z: TimeWindow) =>
    setView((v) => {
      const last = v.zooms.at(-1);
      // One drag, one level, however many hooks report it.
      if (last?.from === z.from && last.to === z.to) return v;
      return { ...v, zooms: [...v.zooms, z] };
    });
  const zoomOut = () =>
    setView((v) =>
      v.zooms.length === 0 ? v : { ...v, now: Date.now(), zooms: v.zooms.slice(0, -1) },
    );

  return (
    <section className="space-y-3" data-testid="metrics-history" aria-label="Metrics history">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <RangePicker choice={view.choice} shown={w} onChange={choose} />
        {zoomed && (
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-400">
            <span data-testid="history-zoom">Zoomed to {describeWindow(w)}</span>
            <Button variant="secondary" size={phone ? 'touch' : 'sm'} onClick={zoomOut}>
              Zoom out
            </Button>
          </div>
        )}
      </div>
      {neverRecorded ? (
        <EmptyState icon={LineChart} title="No data for this range">
          Nothing has been recorded for this container yet: points are recorded every 10 s while it
          runs.
        </EmptyState>
      ) : history.error !== null ? (
        <p
          role="alert"
          className="rounded-md border border-red-900 bg-red-950/60 px-3 py-2 text-sm text-red-300"
          data-testid="history-error"
        >
          {history.error instanceof ApiError
            ? history.error.message
            : 'Could not load the metrics history'}
        </p>
      ) : answer === undefined ? (
        <div className="grid gap-3 lg:grid-cols-2" aria-busy="true">
          {charts.map((c) => (
            <Skeleton key={c.id} className="h-48" />
          ))}
        </div>
      ) : answerIsEmpty(answer, charts) ? (
        <EmptyState icon={LineChart} title="No data for this range">
          {describeWindow(w)}. Points are recorded every 10 s while{' '}
          {target.containerId === null ? 'the host is reachable' : 'the container runs'}.
        </EmptyState>
      ) : (
        <>
          <p className="text-xs text-slate-400" data-testid="history-resolution">
            {describeWindow(w)} · {describeResolution(answer)} · drag across a chart to zoom,
            double-click to zoom out
          </p>
          <div className="grid gap-3 lg:grid-cols-2">
            {charts.map((spec) => (
              <HistoryChart
                key={spec.id}
                spec={spec}
                answer={answer}
                window={w}
                markers={markers}
                syncKey={syncKey}
                onZoom={zoom}
                onZoomOut={zoomOut}
              />
            ))}
          </div>
        </>
      )}
      {markers.length > 0 && <MarkerList markers={markers} />}
    </section>
  );
}

/** The legend of the markers and the newest of them, readable without a mouse (phones). */
function MarkerList({ markers }: { markers: readonly Marker[] }) {
  const theme = useResolvedTheme();
  const newest = markers.slice(-LISTED_MARKERS).reverse();
  return (
    <div className="rounded-lg border border-slate-800 p-3 text-sm" data-testid="history-markers">
      <h3 className="mb-2 font-medium text-slate-200">
        Events in this range{' '}
        <span className="font-normal text-slate-400">
          ({markers.length}
          {markers.length > LISTED_MARKERS ? `, newest ${LISTED_MARKERS} listed` : ''})
        </span>
      </h3>
      <ul className="space-y-1">
        {newest.map((m) => (
          <li key={m.id} className="flex min-w-0 items-baseline gap-2" data-kind={m.kind}>
            <span
              aria-hidden
              className="inline-block h-2 w-2 shrink-0 rounded-full"
              style={{ background: seriesColor(MARKER_COLORS[m.kind], theme) }}
            />
            <span className="shrink-0 text-xs text-slate-400 tabular-nums">
              {formatStamp(new Date(m.t * 1000).toISOString())}
            </span>
            <span className="shrink-0 text-xs text-slate-400">{MARKER_LABELS[m.kind]}</span>
            <span className={m.severe ? 'truncate text-red-300' : 'truncate text-slate-200'}>
              {m.title}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
