import type { Container, Host } from '@berth/contracts';
import { AlertTriangle, Box, CheckCircle2, Download, Server } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { useAlertStats, useUpdatesSummary } from '../api/dashboard-api';

const SUBTITLE_SEPARATOR = ' · ';

function Tile({
  icon: Icon,
  label,
  value,
  subtitle,
  tone = 'text-slate-400',
}: {
  icon: LucideIcon;
  label: string;
  value: string | number;
  subtitle: string;
  tone?: string;
}) {
  const parts = subtitle.split(SUBTITLE_SEPARATOR);
  return (
    <div
      className="flex items-center gap-3 rounded-xl border border-slate-800 bg-slate-900/60 px-4 py-3 max-md:min-w-0 max-md:px-3 max-md:last:col-span-2"
      data-testid={`kpi-${label}`}
    >
      <Icon className={`h-5 w-5 shrink-0 ${tone}`} aria-hidden />
      <div className="min-w-0">
        <div className="text-xs tracking-wide text-slate-400 uppercase">{label}</div>
        <div className="text-xl font-semibold text-white tabular-nums">{value}</div>
        {/* Wraps between its parts, never inside one ("1000 running ·" over "0 stopped"); a
            subtitle of one part wraps between its words. */}
        <div className="text-xs text-slate-500" data-testid="kpi-subtitle">
          {parts.map((part, i) => (
            <span key={`${i}:${part}`}>
              {i > 0 && SUBTITLE_SEPARATOR}
              <span className={parts.length > 1 ? 'whitespace-nowrap' : undefined}>{part}</span>
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}

/** The five KPI tiles: hosts, containers, running, alerts and updates. */
export function KpiBar({ hosts, containers }: { hosts: Host[]; containers: Container[] }) {
  const alerts = useAlertStats().data;
  const updates = useUpdatesSummary().data;
  const online = hosts.filter((h) => h.status === 'online' || h.status === 'degraded').length;
  const running = containers.filter((c) => c.state === 'running').length;
  const openAlerts = alerts?.by_state.open ?? 0;
  const updateCount = updates?.total_updates ?? 0;
  const share = containers.length === 0 ? 0 : Math.round((running / containers.length) * 100);
  return (
    <section aria-label="Key figures" className="mb-6 grid grid-cols-5 gap-3 max-md:grid-cols-2">
      <Tile
        icon={Server}
        label="Hosts"
        value={hosts.length}
        subtitle={`${online} online · ${hosts.length - online} offline`}
      />
      <Tile
        icon={Box}
        label="Containers"
        value={containers.length}
        subtitle={`${running} running · ${containers.length - running} stopped`}
      />
      <Tile
        icon={CheckCircle2}
        label="Running"
        value={running}
        subtitle={`${share}% of total`}
        tone="text-emerald-400"
      />
      <Tile
        icon={AlertTriangle}
        label="Alerts open"
        value={openAlerts}
        subtitle={openAlerts > 0 ? 'Requires attention' : 'All clear'}
        tone={openAlerts > 0 ? 'text-red-400' : 'text-slate-400'}
      />
      <Tile
        icon={Download}
        label="Updates"
        value={updateCount}
        subtitle={updateCount > 0 ? 'Updates available' : 'Up to date'}
        tone={updateCount > 0 ? 'text-sky-400' : 'text-slate-400'}
      />
    </section>
  );
}
