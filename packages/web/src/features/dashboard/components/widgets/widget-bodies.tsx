import type { BerthEvent } from '@berth/contracts';
import { Box, CircleCheck, CircleX, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatTime } from '@/lib/format';
import {
  useAlertStats,
  useAllContainers,
  useDashboardHosts,
  useRecentEvents,
  useUpdatesSummary,
} from '../../api/dashboard-api';

function Row({
  label,
  value,
  to,
  tone,
}: {
  label: string;
  value: number;
  to?: string;
  tone?: string;
}) {
  const body = (
    <>
      <span className="text-slate-400">{label}</span>
      <span className={`font-medium tabular-nums ${tone ?? 'text-slate-100'}`}>{value}</span>
    </>
  );
  return to === undefined ? (
    <div className="flex justify-between py-0.5 text-sm">{body}</div>
  ) : (
    <Link
      to={to}
      className="flex justify-between rounded py-0.5 text-sm hover:bg-slate-800/60 max-md:min-h-11 max-md:items-center"
    >
      {body}
    </Link>
  );
}

const Big = ({ children }: { children: ReactNode }) => (
  <div className="mb-1 text-3xl font-semibold text-white tabular-nums">{children}</div>
);
const Failed = ({ children }: { children: string }) => (
  <p className="text-sm text-red-300">{children}</p>
);

export function ContainerStatsWidget() {
  const { data, isError } = useAllContainers();
  if (isError) return <Failed>Failed to load container stats</Failed>;
  const list = data ?? [];
  const count = (state: string) => list.filter((c) => c.state === state).length;
  const paused = count('paused');
  const running = count('running');
  return (
    <div>
      <Big>{list.length}</Big>
      <Row label="Running" value={running} to="/containers?state=running" tone="text-emerald-400" />
      <Row
        label="Stopped"
        value={list.length - running - paused}
        to="/containers?state=stopped"
        tone="text-red-300"
      />
      {paused > 0 && <Row label="Paused" value={paused} to="/containers?state=paused" />}
    </div>
  );
}

export function HostStatsWidget() {
  const { data, isError } = useDashboardHosts();
  if (isError) return <Failed>Failed to load host stats</Failed>;
  const hosts = data ?? [];
  const online = hosts.filter((h) => h.status === 'online' || h.status === 'degraded').length;
  return (
    <Link to="/hosts" className="block">
      <Big>{hosts.length}</Big>
      <Row label="Online" value={online} tone="text-emerald-400" />
      {hosts.length - online > 0 && (
        <Row label="Offline" value={hosts.length - online} tone="text-red-300" />
      )}
    </Link>
  );
}

function EventIcon({ event }: { event: BerthEvent }) {
  const title = event.title.toLowerCase();
  const tone = /start|running/.test(title)
    ? 'text-emerald-400'
    : /stop|die|exit/.test(title)
      ? 'text-red-400'
      : 'text-slate-400';
  const Icon =
    event.category === 'container'
      ? Box
      : tone === 'text-emerald-400'
        ? CircleCheck
        : tone === 'text-red-400'
          ? CircleX
          : Info;
  return <Icon className={`h-3.5 w-3.5 shrink-0 ${tone}`} aria-hidden />;
}

export function RecentEventsWidget() {
  const { data, isError } = useRecentEvents();
  if (isError) return <Failed>Failed to load events</Failed>;
  const events = data?.events ?? [];
  if (data !== undefined && events.length === 0)
    return <p className="text-sm text-slate-500">No recent events</p>;
  return (
    <ul className="space-y-1 text-sm">
      {events.map((event) => (
        <li key={event.id} className="flex items-center gap-2">
          <EventIcon event={event} />
          <span className="min-w-0 flex-1 truncate text-slate-200">
            {event.container_name ?? event.title}
          </span>
          <span className="shrink-0 text-xs text-slate-500 tabular-nums">
            {formatTime(event.timestamp)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function AlertSummaryWidget() {
  const { data, isError } = useAlertStats();
  if (isError) return <Failed>Failed to load alerts</Failed>;
  const open = data?.by_state.open ?? 0;
  if (data !== undefined && open === 0)
    return <p className="text-sm text-slate-500">No active alerts</p>;
  const severities = [
    ['Critical', data?.by_severity.critical ?? 0, 'text-red-400'],
    ['Error', data?.by_severity.error ?? 0, 'text-orange-400'],
    ['Warning', data?.by_severity.warning ?? 0, 'text-amber-300'],
  ] as const;
  return (
    <Link to="/alerts" className="block">
      <Big>{open}</Big>
      {severities.map(([label, n, tone]) =>
        n > 0 ? <Row key={label} label={label} value={n} tone={tone} /> : null,
      )}
    </Link>
  );
}

export function UpdatesWidget() {
  const total = useUpdatesSummary().data?.total_updates ?? 0;
  return (
    <Link to="/containers?updates=true" className="block max-md:min-h-11">
      {total > 0 ? (
        <>
          <Big>{total}</Big>
          <p className="text-sm text-slate-400">containers with updates available</p>
        </>
      ) : (
        <p className="text-sm text-slate-400">All containers up to date</p>
      )}
    </Link>
  );
}
