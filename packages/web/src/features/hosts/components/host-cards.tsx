import type { Alert, Host } from '@berth/contracts';
import type { RowSelectionState } from '@tanstack/react-table';
import { Eye, KeyRound, MoreVertical, Pencil, Trash2 } from 'lucide-react';
import { HostStatusBadge, TagChips } from '@/components/host-status';
import { ActionMenu, DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { formatPercent } from '@/lib/format';
import { cn } from '@/lib/cn';
import { ConnectionBadge, isAgentHost } from './connection';
import type { HostRowActions } from './host-columns';

/** The hosts list on a phone: one card per host, with the table row's actions in a menu. */
export function HostCards({
  hosts,
  actions,
  alertsOf,
  onOpen,
  selection,
}: {
  hosts: Host[];
  actions: HostRowActions;
  alertsOf: (hostId: string) => Alert[];
  onOpen: (host: Host) => void;
  /** In Select mode: which hosts are picked (for the tag bar), and how to pick one. */
  selection?:
    { picked: RowSelectionState; onPick: (hostId: string, on: boolean) => void } | undefined;
}) {
  return (
    <ul className="space-y-2" data-testid="host-cards">
      {hosts.map((h) => {
        const alerts = alertsOf(h.id).length;
        return (
          <li
            key={h.id}
            data-testid={`host-list-card-${h.name}`}
            className={cn(
              'flex items-center gap-1 rounded-xl border bg-slate-900/60 py-1 pr-1 pl-3',
              selection?.picked[h.id] === true ? 'border-accent' : 'border-slate-800',
            )}
          >
            {selection === undefined ? (
              <button
                type="button"
                onClick={() => onOpen(h)}
                aria-label={`Open ${h.name}`}
                className="block min-h-11 min-w-0 flex-1 py-1 text-left"
              >
                <HostCardBody host={h} alerts={alerts} />
              </button>
            ) : (
              <label className="flex min-h-11 min-w-0 flex-1 cursor-pointer items-center gap-3 py-1">
                <input
                  type="checkbox"
                  className="h-5 w-5 shrink-0"
                  aria-label={`Select ${h.name}`}
                  checked={selection.picked[h.id] === true}
                  onChange={(e) => selection.onPick(h.id, e.target.checked)}
                />
                <div className="min-w-0 flex-1">
                  <HostCardBody host={h} alerts={alerts} />
                </div>
              </label>
            )}
            <ActionMenu
              label={`Actions for ${h.name}`}
              icon={<MoreVertical className="h-5 w-5" aria-hidden />}
              className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-slate-300 hover:bg-slate-800 hover:text-white"
            >
              {actions.view !== undefined && (
                <DropdownMenuItem onSelect={() => actions.view?.(h)}>
                  <Eye className="h-4 w-4" aria-hidden /> View
                </DropdownMenuItem>
              )}
              <DropdownMenuItem onSelect={() => actions.edit(h)}>
                <Pencil className="h-4 w-4" aria-hidden /> Edit
              </DropdownMenuItem>
              {isAgentHost(h) && (
                <DropdownMenuItem onSelect={() => actions.rotateSecret(h)}>
                  <KeyRound className="h-4 w-4" aria-hidden /> Rotate secret
                </DropdownMenuItem>
              )}
              <DropdownMenuItem onSelect={() => actions.remove(h)}>
                <Trash2 className="h-4 w-4" aria-hidden /> Delete
              </DropdownMenuItem>
            </ActionMenu>
          </li>
        );
      })}
    </ul>
  );
}

/** What a host card says: name, connection, status, running containers, CPU, RAM, alerts, tags. */
function HostCardBody({ host: h, alerts }: { host: Host; alerts: number }) {
  return (
    <>
      <div className="flex min-w-0 items-center gap-2">
        <span className="truncate font-medium text-white">{h.name}</span>
        <ConnectionBadge host={h} />
      </div>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-400">
        <HostStatusBadge status={h.status} />
        <span className="tabular-nums">
          {h.containers.running} / {h.containers.total} running
        </span>
        <span className="tabular-nums">CPU {formatPercent(h.stats?.cpu_percent)}</span>
        <span className="tabular-nums">RAM {formatPercent(h.stats?.mem_percent)}</span>
        {alerts > 0 && (
          <span className="text-amber-300 tabular-nums">
            {alerts} alert{alerts === 1 ? '' : 's'}
          </span>
        )}
      </div>
      <TagChips tags={h.tags} max={3} />
    </>
  );
}
