import { containerScopeId, type Alert } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { BellOff, CheckCircle2, ChevronDown, Settings2, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { AlertList, Pager } from '@/components/alert-list';
import { AlertPanel } from '@/components/alert-panel';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import {
  BULK_SNOOZE,
  alertListQueryOptions,
  alertSummaryQueryOptions,
  useAlertActions,
  type AlertFilters,
} from '@/lib/alerts';
import { errorText } from '@/lib/api-client';
import { usePhone } from '@/hooks/use-breakpoint';
import { cn } from '@/lib/cn';
import { containersQueryOptions, hostsQueryOptions } from '@/lib/queries';
import { AlertCards } from './alert-cards';
import { AlertFilterButtons, readAlertFilters } from './alert-filters';
import { AlertFiltersSheet } from './alert-filters-sheet';

/** The Alerts page lists 20 alerts a page. */
const PAGE_SIZE = 20;

/** The Alerts page: counts, filters, the list with bulk actions, the detail panel. */
export function AlertsPage() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readAlertFilters(params), [params]);
  const alertId = params.get('alertId');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const phone = usePhone();

  const stats = useQuery(alertSummaryQueryOptions());
  const list = useQuery(alertListQueryOptions(filters, page, PAGE_SIZE));
  const alerts = list.data?.alerts ?? [];
  const total = list.data?.total ?? 0;
  // A page past the end (after resolving or a filter change) falls back to the last one.
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (list.data !== undefined && page > lastPage) setPage(lastPage);

  const setFilters = (next: AlertFilters) => {
    setPage(1);
    setSelected(new Set());
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      for (const key of ['state', 'severity', 'scope_type', 'scope_id'] as const) {
        const value = next[key];
        if (value === undefined) out.delete(key);
        else out.set(key, value);
      }
      return out;
    });
  };
  const openAlert = (a: Alert) =>
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      out.set('alertId', a.id);
      return out;
    });
  const closeAlert = () =>
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      out.delete('alertId');
      return out;
    });

  const select = (a: Alert, checked: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (checked) next.add(a.id);
      else next.delete(a.id);
      return next;
    });
  const allOnPage = alerts.length > 0 && alerts.every((a) => selected.has(a.id));
  const selectPage = (checked: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const a of alerts) {
        if (checked) next.add(a.id);
        else next.delete(a.id);
      }
      return next;
    });

  const counts = stats.data;
  const scopeName = useScopeName(filters.scope_id);
  const empty = list.isError ? (
    <span className="text-red-300">{errorText(list.error, 'Failed to fetch alerts')}</span>
  ) : list.isPending ? (
    'Loading alerts…'
  ) : (
    <>
      <p className="text-base font-medium text-slate-200">No alerts found</p>
      <p className="mt-1">Try adjusting your filters</p>
    </>
  );

  return (
    <>
      <PageHeader
        title="Alerts"
        subtitle="Open, snoozed and resolved alerts"
        actions={
          <Link
            to="/alerts/rules"
            className="inline-flex h-8 items-center gap-2 rounded-md border border-slate-700 bg-slate-800 px-3 text-sm font-medium text-slate-100 hover:bg-slate-700"
          >
            <Settings2 className="h-4 w-4" aria-hidden />
            Manage Rules
          </Link>
        }
      />
      <div className="mb-5 grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="alert-summary">
        <SummaryCard label="Critical" tone="text-red-300" value={counts?.by_severity.critical} />
        <SummaryCard label="Error" tone="text-orange-300" value={counts?.by_severity.error} />
        <SummaryCard label="Warning" tone="text-amber-200" value={counts?.by_severity.warning} />
        <SummaryCard label="Open" tone="text-white" value={counts?.by_state.open} />
      </div>
      {phone ? (
        <AlertFiltersSheet
          filters={filters}
          onFilters={setFilters}
          scopeName={scopeName}
          shown={list.data?.total}
        />
      ) : (
        <AlertFilterButtons filters={filters} onFilters={setFilters} scopeName={scopeName} />
      )}

      {selected.size > 0 && (
        <BulkBar
          ids={[...selected]}
          known={alerts}
          onDone={() => setSelected(new Set())}
          onClear={() => setSelected(new Set())}
        />
      )}

      {alerts.length > 0 && (
        <label className="mb-2 flex items-center gap-2 px-4 text-xs text-slate-400">
          <input
            type="checkbox"
            aria-label="Select all alerts on this page"
            checked={allOnPage}
            onChange={(e) => selectPage(e.target.checked)}
          />
          Select all on this page
        </label>
      )}
      {phone ? (
        <AlertCards
          alerts={list.isError ? [] : alerts}
          empty={empty}
          onOpen={openAlert}
          selected={selected}
          onSelect={select}
        />
      ) : (
        <AlertList
          alerts={list.isError ? [] : alerts}
          empty={empty}
          onOpen={openAlert}
          selected={selected}
          onSelect={select}
        />
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={setPage} noun="alerts" />
      {alertId !== null && <AlertPanel key={alertId} alertId={alertId} onClose={closeAlert} />}
    </>
  );
}

/** The name to show for a ?scope_id= filter: the container's or the host's. */
function useScopeName(scopeId: string | undefined): string | undefined {
  const hosts = useQuery({ ...hostsQueryOptions(), enabled: scopeId !== undefined }).data;
  const containers = useQuery({ ...containersQueryOptions(), enabled: scopeId !== undefined }).data;
  if (scopeId === undefined) return undefined;
  const host = hosts?.find((h) => h.id === scopeId);
  if (host !== undefined) return host.name;
  const container = containers?.find((c) => containerScopeId(c.host_id, c.name) === scopeId);
  if (container !== undefined) return `${container.name} on ${container.host_name}`;
  const [, name] = scopeId.split(/:(.*)/s);
  return name ?? scopeId;
}

function SummaryCard({
  label,
  value,
  tone,
}: {
  label: string;
  value: number | undefined;
  tone: string;
}) {
  return (
    <div
      className="rounded-xl border border-slate-800 bg-slate-900/60 px-4 py-3"
      data-testid={`alert-count-${label.toLowerCase()}`}
    >
      <div className="text-xs tracking-wide text-slate-400 uppercase">{label}</div>
      <div className={cn('mt-1 text-2xl font-semibold tabular-nums', tone)}>{value ?? '—'}</div>
    </div>
  );
}

/** Snooze or resolve every selected alert; resolved ones are skipped. */
function BulkBar({
  ids,
  known,
  onDone,
  onClear,
}: {
  ids: string[];
  known: Alert[];
  onDone: () => void;
  onClear: () => void;
}) {
  const { snooze, resolve } = useAlertActions();
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const byId = new Map(known.map((a) => [a.id, a]));
  // Alerts selected on another page are not in `known`; the server refuses resolved ones.
  const actionable = ids.filter((id) => byId.get(id)?.state !== 'resolved');

  const run = async (verb: string, action: (id: string) => Promise<unknown>) => {
    setBusy(true);
    const results = await Promise.allSettled(actionable.map(action));
    setBusy(false);
    const failed = results.filter((r) => r.status === 'rejected').length;
    const done = results.length - failed;
    if (done > 0) toast.success(`${verb} ${done} alert${done === 1 ? '' : 's'}`);
    if (failed > 0)
      toast.error(
        `Failed to ${verb.toLowerCase().replace(/d$/, '')} ${failed} alert${failed === 1 ? '' : 's'}`,
      );
    onDone();
  };

  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="mb-3 flex flex-wrap items-center gap-3 rounded-xl border border-accent/40 bg-accent/10 px-4 py-2 text-sm"
    >
      <span className="font-medium text-white">{ids.length} selected</span>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button size="sm" variant="secondary" disabled={busy || actionable.length === 0}>
            <BellOff className="h-4 w-4" aria-hidden />
            Snooze
            <ChevronDown className="h-3.5 w-3.5" aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent side="bottom">
          {BULK_SNOOZE.map((s) => (
            <DropdownMenuItem
              key={s.minutes}
              onSelect={() =>
                void run('Snoozed', (id) => snooze.mutateAsync({ id, minutes: s.minutes }))
              }
            >
              {s.label}
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
      <Button
        size="sm"
        variant="secondary"
        disabled={busy || actionable.length === 0}
        onClick={() => setConfirm(true)}
      >
        <CheckCircle2 className="h-4 w-4" aria-hidden />
        Resolve
      </Button>
      <Button size="sm" variant="ghost" className="ml-auto" onClick={onClear}>
        <X className="h-4 w-4" aria-hidden />
        Clear selection
      </Button>
      <ConfirmDialog
        open={confirm}
        title="Resolve Alerts"
        description={`Resolve ${actionable.length} selected alert${actionable.length === 1 ? '' : 's'}? They will be marked as manually resolved.`}
        confirmLabel="Resolve"
        busy={busy}
        onCancel={() => setConfirm(false)}
        onConfirm={() => {
          setConfirm(false);
          void run('Resolved', (id) => resolve.mutateAsync(id));
        }}
      />
    </div>
  );
}
