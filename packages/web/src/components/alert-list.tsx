import type { Alert } from '@berth/contracts';
import type { ReactNode } from 'react';
import { alertTimeAgo } from '@/lib/alerts';
import { cn } from '@/lib/cn';
import { AlertStateBadge, SeverityBadge, alertScopeLabel } from './alert-badges';

/**
 * A list of alerts (the Alerts page, a container's Alerts tab). Resolved and snoozed ones are
 * dimmed; a click opens the alert; with `selected` each row has a checkbox.
 */
export function AlertList({
  alerts,
  empty,
  onOpen,
  selected,
  onSelect,
}: {
  alerts: Alert[];
  empty: ReactNode;
  onOpen: (alert: Alert) => void;
  selected?: ReadonlySet<string>;
  onSelect?: (alert: Alert, checked: boolean) => void;
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
    <ul
      data-testid="alert-list"
      className="divide-y divide-slate-800 overflow-hidden rounded-xl border border-slate-800"
    >
      {alerts.map((a) => (
        <li
          key={a.id}
          data-testid="alert-row"
          data-state={a.state}
          className={cn(
            'flex cursor-pointer items-center gap-3 px-4 py-3 hover:bg-slate-800/50',
            a.state !== 'open' && 'opacity-55',
          )}
          onClick={() => onOpen(a)}
        >
          {selected !== undefined && onSelect !== undefined && (
            <input
              type="checkbox"
              aria-label={`Select ${a.title}`}
              checked={selected.has(a.id)}
              onClick={(e) => e.stopPropagation()}
              onChange={(e) => onSelect(a, e.target.checked)}
            />
          )}
          <SeverityBadge severity={a.severity} />
          <div className="min-w-0 flex-1">
            <button
              type="button"
              className="block max-w-full truncate text-left text-sm font-medium text-slate-100 hover:underline"
              onClick={(e) => {
                e.stopPropagation();
                onOpen(a);
              }}
            >
              {a.title}
            </button>
            <div className="truncate text-xs text-slate-400">
              {alertScopeLabel(a)}
              {a.message !== null && a.message !== '' && ` · ${a.message}`}
            </div>
          </div>
          <AlertStateBadge state={a.state} />
          <span
            className="w-24 shrink-0 text-right text-xs text-slate-400 tabular-nums"
            title={new Date(a.last_seen).toLocaleString()}
          >
            {alertTimeAgo(a.last_seen)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Previous / Next with the page and a count, under a list. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  noun,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  noun: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize) return null;
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <div className="mt-3 flex items-center justify-between text-sm text-slate-400">
      <span data-testid="alerts-showing">
        Showing {from}-{to} of {total} {noun}
      </span>
      <div className="flex items-center gap-2">
        <button
          type="button"
          className="rounded px-3 py-1 hover:bg-slate-800 disabled:opacity-40"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          Previous
        </button>
        <span className="tabular-nums">
          Page {page} of {pages}
        </span>
        <button
          type="button"
          className="rounded px-3 py-1 hover:bg-slate-800 disabled:opacity-40"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          Next
        </button>
      </div>
    </div>
  );
}
