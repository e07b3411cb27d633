import type { MetricsResponse } from '@berth/contracts';
import { memo } from 'react';
import { formatPercent, formatRate } from '@/lib/format';
import { seriesColor, useResolvedTheme } from '@/lib/theme';
import { DAY_S, useHostDay } from '../api/host-day';

const HEIGHT = 32;

/**
 * A plain line of a day's means on a time axis (the day's start at the left, now at the
 * right): a missing point is a gap, not a line drawn across it. SVG with a viewBox, like the
 * live sparklines it replaces.
 */
const DayLine = memo(function DayLine({
  t,
  values,
  from,
  max,
  color,
  label,
}: {
  t: readonly number[];
  values: readonly (number | null)[];
  from: number;
  max?: number;
  color: string;
  label: string;
}) {
  const theme = useResolvedTheme();
  const top = max ?? Math.max(1, ...values.map((v) => v ?? 0));
  let path = '';
  let pen = false;
  values.forEach((v, i) => {
    if (v === null) {
      pen = false;
      return;
    }
    const x = (((t[i] ?? from) - from) / DAY_S) * 100;
    const y = HEIGHT - (Math.min(v, top) / top) * (HEIGHT - 2) - 1;
    path += `${pen ? 'L' : 'M'}${x.toFixed(2)},${y.toFixed(2)}`;
    pen = true;
  });
  return (
    <svg
      role="img"
      aria-label={label}
      data-points={values.filter((v) => v !== null).length}
      viewBox={`0 0 100 ${HEIGHT}`}
      preserveAspectRatio="none"
      className="block w-full"
      style={{ height: HEIGHT, minWidth: 60 }}
    >
      <path
        d={path}
        fill="none"
        stroke={seriesColor(color, theme)}
        strokeWidth={1.5}
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
});

/** The mean of the points that have a value; null when none has. */
function average(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
}

/** Network in and out together, like the live card's figure. */
function netOf(day: MetricsResponse): (number | null)[] {
  const rx = day.net_rx_bytes_per_sec.mean;
  const tx = day.net_tx_bytes_per_sec.mean;
  return rx.map((r, i) => {
    const w = tx[i] ?? null;
    return r === null && w === null ? null : (r ?? 0) + (w ?? 0);
  });
}

function Figure({
  label,
  value,
  children,
}: {
  label: string;
  value: string;
  children: React.ReactNode;
}) {
  return (
    <div className="row-span-2 grid min-w-0 grid-rows-subgrid">
      <div className="flex flex-wrap items-baseline justify-between gap-x-1 text-xs whitespace-nowrap">
        <span className="text-slate-500">{label}</span>
        <span className="truncate text-slate-200 tabular-nums" data-testid={`day-${label}`}>
          {value}
        </span>
      </div>
      {children}
    </div>
  );
}

/** A host card's last 24 h from metrics history: CPU, memory and network means, 15 min apart. */
export function CardDay({ hostId, allowGb }: { hostId: string; allowGb: boolean }) {
  const day = useHostDay(hostId);
  if (day.isPending) return <p className="py-3 text-xs text-slate-500">Loading the last 24 h…</p>;
  if (day.isError)
    return <p className="py-3 text-xs text-red-300">The last 24 h could not be read</p>;
  const d = day.data;
  const from = Math.floor(Date.parse(d.from) / 1000);
  const net = netOf(d);
  if (d.t.length === 0)
    return (
      <p className="py-3 text-xs text-slate-500" data-testid="day-empty">
        No history yet: a 15 min point appears once its quarter hour has passed
      </p>
    );
  return (
    <div data-testid="card-day">
      <p className="mb-1 text-[11px] text-slate-500">Last 24 h, averages</p>
      <div className="grid grid-cols-3 gap-x-2">
        <Figure label="CPU" value={formatPercent(average(d.cpu_percent.mean))}>
          <DayLine
            t={d.t}
            from={from}
            values={d.cpu_percent.mean}
            max={100}
            color="#38bdf8"
            label="CPU over 24 h"
          />
        </Figure>
        <Figure label="Mem" value={formatPercent(average(d.memory_percent.mean))}>
          <DayLine
            t={d.t}
            from={from}
            values={d.memory_percent.mean}
            max={100}
            color="#a78bfa"
            label="Memory over 24 h"
          />
        </Figure>
        <Figure label="Net" value={formatRate(average(net), allowGb)}>
          <DayLine t={d.t} from={from} values={net} color="#34d399" label="Network over 24 h" />
        </Figure>
      </div>
    </div>
  );
}
