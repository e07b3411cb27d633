import type { Sparklines } from '@berth/contracts';
import { memo } from 'react';
import { Sparkline } from '@/components/sparkline';
import { formatPercent, formatRate } from '@/lib/format';

interface CardMetricsProps {
  sparklines: Sparklines | null;
  cpu: number | null;
  mem: number | null;
  net: number | null;
  allowGb: boolean;
  /** Off screen with optimized loading on: keep showing the last figures, skip updates. */
  paused: boolean;
}

/** Net shows a dash until two non-zero samples exist. */
const netKnown = (net: readonly number[]) => net.filter((v) => v > 0).length >= 2;

function Metric({
  label,
  value,
  children,
}: {
  label: string;
  value: string;
  children: React.ReactNode;
}) {
  // The value sits beside its label where both fit, and under it where they do not (a
  // narrow window's cards): cut to "1.8 …" it said nothing. The rows are the card's, shared
  // through the subgrid, so the three charts stay level when one label wraps.
  return (
    <div className="row-span-2 grid min-w-0 grid-rows-subgrid">
      <div className="flex flex-wrap items-baseline justify-between gap-x-1 text-xs whitespace-nowrap">
        <span className="text-slate-500">{label}</span>
        <span className="truncate text-slate-200 tabular-nums" data-testid={`metric-${label}`}>
          {value}
        </span>
      </div>
      {children}
    </div>
  );
}

function CardMetricsView({ sparklines, cpu, mem, net, allowGb }: CardMetricsProps) {
  if (sparklines === null || cpu === null)
    return <p className="py-3 text-xs text-slate-500">No stats available</p>;
  return (
    <div className="grid grid-cols-3 gap-x-2">
      <Metric label="CPU" value={formatPercent(cpu)}>
        <Sparkline values={sparklines.cpu} max={100} color="#38bdf8" label="CPU history" />
      </Metric>
      <Metric label="Mem" value={formatPercent(mem)}>
        <Sparkline values={sparklines.mem} max={100} color="#a78bfa" label="Memory history" />
      </Metric>
      <Metric label="Net" value={netKnown(sparklines.net) ? formatRate(net, allowGb) : '—'}>
        <Sparkline values={sparklines.net} color="#34d399" label="Network history" />
      </Metric>
    </div>
  );
}

/**
 * While paused the previous render stays: memo says "equal" and React skips the update.
 * A card that has shown nothing yet still gets its first figures.
 */
export const CardMetrics = memo(CardMetricsView, (prev, next) => {
  if (next.paused && prev.paused && prev.sparklines !== null) return true;
  return (
    prev.sparklines === next.sparklines &&
    prev.cpu === next.cpu &&
    prev.mem === next.mem &&
    prev.net === next.net &&
    prev.allowGb === next.allowGb &&
    prev.paused === next.paused
  );
});
