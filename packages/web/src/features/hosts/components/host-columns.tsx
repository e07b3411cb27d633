import type { Host } from '@berth/contracts';
import { createColumnHelper } from '@tanstack/react-table';
import { Lock, LockOpen, Pencil, Trash2 } from 'lucide-react';
import { formatPercent, formatUptime } from '@/lib/format';
import { HostStatusBadge } from './host-status';

const col = createColumnHelper<Host>();
const TAGS_SHOWN = 2;

export interface HostRowActions {
  edit: (host: Host) => void;
  remove: (host: Host) => void;
}

/** The columns of the hosts table (spec 1 §2). */
export function hostColumns(actions: HostRowActions) {
  return [
    col.accessor('status', {
      header: 'Status',
      cell: (c) => <HostStatusBadge status={c.getValue()} />,
    }),
    col.accessor('name', {
      header: 'Hostname',
      cell: (c) => {
        const h = c.row.original;
        const secure = h.security_status === 'secure' || h.url.startsWith('https://');
        const Icon = secure ? Lock : LockOpen;
        return (
          <div className="min-w-0">
            <div className="flex items-center gap-1.5 font-medium text-white">
              <Icon
                className={secure ? 'h-3.5 w-3.5 text-emerald-400' : 'h-3.5 w-3.5 text-amber-400'}
                aria-label={secure ? 'Secure' : 'Insecure'}
              />
              {h.name}
            </div>
            <div className="mt-1 flex flex-wrap gap-1">
              {h.tags.slice(0, TAGS_SHOWN).map((t) => (
                <span key={t} className="rounded bg-slate-800 px-1.5 py-0.5 text-xs text-slate-300">
                  {t}
                </span>
              ))}
              {h.tags.length > TAGS_SHOWN && (
                <span className="text-xs text-slate-500">+{h.tags.length - TAGS_SHOWN}</span>
              )}
            </div>
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
      cell: (c) => (c.getValue() > 0 ? c.getValue() : '—'),
    }),
    col.accessor('daemon_started_at', {
      header: 'Uptime',
      cell: (c) => formatUptime(c.getValue()),
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
      cell: (c) => (
        <div className="text-xs text-slate-400">
          <div className="truncate">{c.getValue() ?? '—'}</div>
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
      header: 'Actions',
      cell: (c) => (
        <div className="flex gap-1">
          <button
            type="button"
            aria-label={`Edit ${c.row.original.name}`}
            onClick={() => actions.edit(c.row.original)}
            className="rounded p-1.5 text-slate-400 hover:bg-slate-800 hover:text-white"
          >
            <Pencil className="h-4 w-4" />
          </button>
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
