import type { Alert, Host } from '@berth/contracts';
import { createColumnHelper } from '@tanstack/react-table';
import { Eye, KeyRound, Lock, LockOpen, Pencil, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { HostUptime } from '@/components/host-uptime';
import { formatPercent } from '@/lib/format';
import { selectColumn } from '@/components/data-table';
import { HostStatusBadge, TagChips } from '@/components/host-status';
import { ConnectionBadge, INSECURE_AGENT_TEXT, isAgentHost } from './connection';

const col = createColumnHelper<Host>();
const TAGS_SHOWN = 2;

export interface HostRowActions {
  edit: (host: Host) => void;
  remove: (host: Host) => void;
  /** Gives an agent host's agent a new secret (after a confirm). */
  rotateSecret: (host: Host) => void;
  /** Absent when simplified workflow is on (the row opens the host instead). */
  view?: (host: Host) => void;
}

const SEVERITY_TONE: Record<Alert['severity'], string> = {
  critical: 'bg-red-500/20 text-red-300',
  error: 'bg-orange-500/20 text-orange-300',
  warning: 'bg-amber-500/20 text-amber-200',
  info: 'bg-sky-500/20 text-sky-200',
};

/** Open alerts by severity; each count opens the newest alert of that severity. */
function AlertCounts({ alerts }: { alerts: Alert[] }) {
  if (alerts.length === 0) return <span className="text-slate-500">—</span>;
  const order: Alert['severity'][] = ['critical', 'error', 'warning', 'info'];
  return (
    <div className="flex gap-1">
      {order.map((severity) => {
        const mine = alerts.filter((a) => a.severity === severity);
        const first = mine[0];
        if (first === undefined) return null;
        return (
          <Link
            key={severity}
            to={`/alerts?alertId=${first.id}`}
            title={`${mine.length} ${severity}`}
            className={`rounded px-1.5 py-0.5 text-xs tabular-nums ${SEVERITY_TONE[severity]}`}
          >
            {mine.length}
          </Link>
        );
      })}
    </div>
  );
}

/** The columns of the hosts table. */
export function hostColumns(actions: HostRowActions, alertsOf: (hostId: string) => Alert[]) {
  return [
    selectColumn<Host>('hosts'),
    col.accessor('status', {
      header: 'Status',
      cell: (c) => {
        const h = c.row.original;
        // An agent's refusal (an incompatible version) is why it is offline: said right here.
        const why = isAgentHost(h) && h.status !== 'online' ? h.error : null;
        return (
          <div className="max-w-60">
            <HostStatusBadge status={c.getValue()} />
            {why !== null && (
              <div className="mt-0.5 line-clamp-3 text-xs text-red-300" title={why}>
                {why}
              </div>
            )}
          </div>
        );
      },
    }),
    col.accessor('name', {
      meta: { pinnedStart: true },
      header: 'Hostname',
      cell: (c) => {
        const h = c.row.original;
        const secure = h.security_status === 'secure' || h.url.startsWith('https://');
        const Icon = secure ? Lock : LockOpen;
        const insecureAgent = isAgentHost(h) && h.security_status === 'insecure';
        return (
          <div className="min-w-0">
            <div className="flex items-center gap-1.5 font-medium text-white">
              {/* An agent that never connected has no connection to call secure or not yet. */}
              {h.security_status !== 'unknown' && (
                <Icon
                  className={secure ? 'h-3.5 w-3.5 text-emerald-400' : 'h-3.5 w-3.5 text-amber-400'}
                  aria-label={secure ? 'Secure' : 'Insecure'}
                >
                  {insecureAgent && <title>{INSECURE_AGENT_TEXT}</title>}
                </Icon>
              )}
              <span className="whitespace-nowrap">{h.name}</span>
              <ConnectionBadge host={h} />
            </div>
            <TagChips tags={h.tags} max={TAGS_SHOWN} />
          </div>
        );
      },
    }),
    col.accessor((h) => h.containers.running, {
      id: 'containers',
      header: 'Containers',
      cell: (c) => `${c.row.original.containers.running} / ${c.row.original.containers.total}`,
    }),
    col.accessor((h) => h.alerts.open, {
      id: 'alerts',
      header: 'Alerts',
      enableSorting: false,
      cell: (c) => <AlertCounts alerts={alertsOf(c.row.original.id)} />,
    }),
    col.accessor('daemon_started_at', {
      header: 'Uptime',
      cell: (c) => <HostUptime host={c.row.original} />,
    }),
    col.accessor((h) => h.stats?.cpu_percent ?? null, {
      id: 'cpu',
      header: 'CPU%',
      cell: (c) => formatPercent(c.getValue()),
    }),
    col.accessor((h) => h.stats?.mem_percent ?? null, {
      id: 'ram',
      header: 'RAM%',
      cell: (c) => formatPercent(c.getValue()),
    }),
    col.accessor('os_version', {
      header: 'OS / Version',
      // Two lines at most, in a bounded column: a long kernel string widened the table past a
      // 1280 px window and pushed the row actions out of sight. The whole text is its title.
      cell: (c) => (
        <div className="max-w-48 text-xs text-slate-400">
          <div className="line-clamp-2 break-words" title={c.getValue() ?? undefined}>
            {c.getValue() ?? '—'}
          </div>
          <div>
            {c.row.original.docker_version === null
              ? ''
              : `Docker ${c.row.original.docker_version}`}
          </div>
        </div>
      ),
    }),
    col.display({
      id: 'actions',
      meta: { pinnedEnd: true },
      header: 'Actions',
      cell: (c) => (
        <div className="flex gap-1">
          {actions.view !== undefined && (
            <button
              type="button"
              aria-label={`View ${c.row.original.name}`}
              onClick={() => actions.view?.(c.row.original)}
              className="rounded p-1.5 text-slate-400 hover:bg-slate-800 hover:text-white"
            >
              <Eye className="h-4 w-4" />
            </button>
          )}
          <button
            type="button"
            aria-label={`Edit ${c.row.original.name}`}
            onClick={() => actions.edit(c.row.original)}
            className="rounded p-1.5 text-slate-400 hover:bg-slate-800 hover:text-white"
          >
            <Pencil className="h-4 w-4" />
          </button>
          {isAgentHost(c.row.original) && (
            <button
              type="button"
              aria-label={`Rotate secret of ${c.row.original.name}`}
              title="Rotate secret"
              onClick={() => actions.rotateSecret(c.row.original)}
              className="rounded p-1.5 text-slate-400 hover:bg-slate-800 hover:text-white"
            >
              <KeyRound className="h-4 w-4" />
            </button>
          )}
          <button
            type="button"
            aria-label={`Delete ${c.row.original.name}`}
            onClick={() => actions.remove(c.row.original)}
            className="rounded p-1.5 text-slate-400 hover:bg-slate-800 hover:text-red-300"
          >
            <Trash2 className="h-4 w-4" />
          </button>
        </div>
      ),
    }),
  ];
}
