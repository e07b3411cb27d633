import type { Alert } from '@berth/contracts';
import { BellOff, BellRing, CheckCircle2, Eye, MoreVertical } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { AlertStateBadge, SeverityBadge, alertScopeLabel } from '@/components/alert-badges';
import { ActionMenu, DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { alertTimeAgo, BULK_SNOOZE, useAlertActions } from '@/lib/alerts';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/cn';

/** An alert's actions as a menu: open, and what its side panel offers (snooze, resolve). */
function AlertMenu({ alert: a, onOpen }: { alert: Alert; onOpen: (a: Alert) => void }) {
  const { snooze, unsnooze, resolve } = useAlertActions();
  const busy = snooze.isPending || unsnooze.isPending || resolve.isPending;
  return (
    <ActionMenu
      label={`Actions for ${a.title}`}
      icon={<MoreVertical className="h-5 w-5" aria-hidden />}
      className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-slate-300 hover:bg-slate-800 hover:text-white"
    >
      <DropdownMenuItem onSelect={() => onOpen(a)}>
        <Eye className="h-4 w-4" aria-hidden /> Open
      </DropdownMenuItem>
      {a.state !== 'resolved' && (
        <>
          <DropdownMenuSeparator />
          {BULK_SNOOZE.map((s) => (
            <DropdownMenuItem
              key={s.minutes}
              disabled={busy}
              onSelect={() =>
                snooze.mutate(
                  { id: a.id, minutes: s.minutes },
                  {
                    onSuccess: () => toast.success(`Alert snoozed for ${s.label}`),
                    onError: (err) => toast.error(errorText(err, 'Failed to snooze')),
                  },
                )
              }
            >
              <BellOff className="h-4 w-4" aria-hidden /> Snooze {s.label}
            </DropdownMenuItem>
          ))}
          {a.state === 'snoozed' && (
            <DropdownMenuItem
              disabled={busy}
              onSelect={() =>
                unsnooze.mutate(a.id, {
                  onSuccess: () => toast.success('Alert unsnoozed'),
                  onError: (err) => toast.error(errorText(err, 'Failed to unsnooze')),
                })
              }
            >
              <BellRing className="h-4 w-4" aria-hidden /> Unsnooze
            </DropdownMenuItem>
          )}
          <DropdownMenuSeparator />
          {/* Opens the panel, which asks before resolving (as on a desktop). */}
          <DropdownMenuItem onSelect={() => onOpen(a)}>
            <CheckCircle2 className="h-4 w-4" aria-hidden /> Resolve…
          </DropdownMenuItem>
        </>
      )}
    </ActionMenu>
  );
}

/** The alerts list on a phone: one card per alert with a checkbox and a ⋯ menu. */
export function AlertCards({
  alerts,
  empty,
  onOpen,
  selected,
  onSelect,
}: {
  alerts: Alert[];
  empty: ReactNode;
  onOpen: (alert: Alert) => void;
  selected: ReadonlySet<string>;
  onSelect: (alert: Alert, checked: boolean) => void;
}) {
  if (alerts.length === 0)
    return (
      <div
        data-testid="alerts-empty"
        className="rounded-xl border border-dashed border-slate-800 px-6 py-12 text-center text-sm text-slate-400"
      >
        {empty}
      </div>
    );
  return (
    <ul data-testid="alert-list" className="space-y-2">
      {alerts.map((a) => (
        <li
          key={a.id}
          data-testid="alert-row"
          data-state={a.state}
          className={cn(
            'flex items-center gap-1 rounded-xl border border-slate-800 bg-slate-900/60 py-1 pr-1',
            a.state !== 'open' && 'opacity-55',
          )}
        >
          <label className="flex h-11 w-11 shrink-0 cursor-pointer items-center justify-center">
            <input
              type="checkbox"
              className="h-5 w-5"
              aria-label={`Select ${a.title}`}
              checked={selected.has(a.id)}
              onChange={(e) => onSelect(a, e.target.checked)}
            />
          </label>
          <button
            type="button"
            onClick={() => onOpen(a)}
            className="block min-h-11 min-w-0 flex-1 py-1 text-left"
          >
            <div className="flex items-center gap-2">
              <SeverityBadge severity={a.severity} />
              <AlertStateBadge state={a.state} />
              <span
                className="ml-auto shrink-0 text-xs text-slate-400 tabular-nums"
                title={new Date(a.last_seen).toLocaleString()}
              >
                {alertTimeAgo(a.last_seen)}
              </span>
            </div>
            <div className="mt-1 truncate text-sm font-medium text-slate-100">{a.title}</div>
            <div className="truncate text-xs text-slate-400">
              {alertScopeLabel(a)}
              {a.message !== null && a.message !== '' && ` · ${a.message}`}
            </div>
          </button>
          <AlertMenu alert={a} onOpen={onOpen} />
        </li>
      ))}
    </ul>
  );
}
