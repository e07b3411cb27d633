import type { Alert, AlertListResponse, Container, ContainerAction, Host } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import type { RowSelectionState, SortingState } from '@tanstack/react-table';
import { Box } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { openAlertsByScope, openAlertsQueryOptions } from '@/lib/alerts';
import { useContainerAction } from '@/lib/container-actions';
import { useContainerPanels } from '@/lib/container-panels';
import { containerKeyOf } from '@berth/contracts';
import { usePreferences } from '@/lib/preferences';
import { useCan, useCanReadLogs } from '@/hooks/use-can';
import { usePhone } from '@/hooks/use-breakpoint';
import {
  containersQueryOptions,
  hostsQueryOptions,
  type ContainersData,
  updatesSummaryQueryOptions,
} from '@/lib/queries';
import {
  applyFilters,
  NO_FILTERS,
  readFilters,
  writeFilters,
  type ContainerFilters,
} from '../lib/container-filters';
import { healthCheckConfigsQueryOptions, useHealthCheckLiveRefresh } from '../api/health-check-api';
import { LIVE_FIELDS, STATUS_FIELD, steadyContainers } from '../lib/steady-containers';
import { BatchPanel } from './batch-panel';
import { BulkBar } from './bulk-bar';
import { STATS_COLUMNS } from './container-columns';
import { ContainerFiltersBar } from './container-filters-bar';
import { ContainerPhoneToolbar } from './container-filters-sheet';
import { ContainersTable } from './containers-table';
import { ContainerDetailDialog, type DetailTab } from './detail/container-detail-dialog';

const NO_UPDATES: ReadonlySet<string> = new Set();
const NO_HOSTS: Host[] = [];
const NO_ALERTS: ReadonlyMap<string, Alert[]> = new Map();
const byScope = (answer: AlertListResponse) => openAlertsByScope(answer.alerts);

/**
 * The containers table with its filters, bulk bar and batch panel. Filters live in the query
 * string (history entry replaced); scoped to a host, that host is forced into the filter.
 */
export function ContainersView({ scopedHostId }: { scopedHostId?: string }) {
  const prefs = usePreferences().data;
  const [sorting, setSorting] = useState<SortingState>(prefs?.container_table_sort ?? []);
  // A live message that changed only stats leaves the list as it was (rows read their stats
  // live), unless the table is sorted by stats and the order may change with them.
  const sortedByStats = sorting.some((s) => STATS_COLUMNS.has(s.id));
  const select = useMemo(() => {
    const steady = steadyContainers(sortedByStats ? STATUS_FIELD : LIVE_FIELDS);
    return (data: ContainersData) => steady(data.containers);
  }, [sortedByStats]);
  const containers = useQuery({ ...containersQueryOptions(), select });
  const hosts = useQuery(hostsQueryOptions()).data ?? NO_HOSTS;
  const updates = useQuery(updatesSummaryQueryOptions()).data;
  const healthChecks = useQuery(healthCheckConfigsQueryOptions()).data;
  const openAlerts = useQuery({ ...openAlertsQueryOptions(), select: byScope }).data ?? NO_ALERTS;
  useHealthCheckLiveRefresh();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [jobId, setJobId] = useState<string | null>(null);
  // /containers?containerId=host:id opens that container (the parameter is then dropped).
  const [detail, setDetail] = useState<{ key: string; tab: DetailTab } | null>(() => {
    const linked = scopedHostId === undefined ? params.get('containerId') : null;
    return linked === null ? null : { key: linked, tab: 'info' };
  });
  const action = useContainerAction();
  const phone = usePhone();
  const [selecting, setSelecting] = useState(false);
  const selectByLongPress = useCallback((key: string) => {
    setSelecting(true);
    setSelection((now) => ({ ...now, [key]: true }));
  }, []);

  // Scoped to a host (inside the host modal), filters stay local: the page URL is not ours.
  const [localFilters, setLocalFilters] = useState<ContainerFilters>(NO_FILTERS);
  // Memoised with what they are read from, so a live message (new container data, same
  // filters) filters once and nothing downstream sees new filter objects.
  const filters: ContainerFilters = useMemo(
    () =>
      scopedHostId === undefined ? readFilters(params) : { ...localFilters, hosts: [scopedHostId] },
    [scopedHostId, params, localFilters],
  );
  const setFilters = useCallback(
    (next: ContainerFilters) => {
      if (scopedHostId === undefined)
        setParams((prev) => writeFilters(prev, next), { replace: true });
      else setLocalFilters(next);
    },
    [scopedHostId, setParams],
  );

  const withUpdates = useMemo(
    () => (updates === undefined ? NO_UPDATES : new Set(updates.containers_with_updates)),
    [updates],
  );
  const withHealthCheck = useMemo(
    () =>
      new Set(
        Object.entries(healthChecks ?? {})
          .filter(([, h]) => h.enabled)
          .map(([k]) => k),
      ),
    [healthChecks],
  );
  const visible = useMemo(
    () => applyFilters(containers.data ?? [], filters, search, { withUpdates, withHealthCheck }),
    [containers.data, filters, search, withUpdates, withHealthCheck],
  );
  const selected = useMemo(
    () =>
      Object.keys(selection).length === 0
        ? []
        : (containers.data ?? []).filter((c) => selection[containerKeyOf(c)] === true),
    [containers.data, selection],
  );
  // `mutate` is stable; the mutation's result object is new on every render, and row actions
  // that changed with it would redraw every row (components/data-table.tsx).
  const { mutate } = action;
  const act = useCallback(
    (c: Container, name: ContainerAction) =>
      mutate({ hostId: c.host_id, containerId: c.id, action: name }),
    [mutate],
  );
  // A name opens a preview (the drawer), or the full dialog with the full-details
  // mode (simplified workflow) on; the other row actions always open the full dialog.
  const simplified = prefs?.simplified_workflow ?? true;
  const { openContainer } = useContainerPanels();
  const open = useCallback(
    (c: Container, tab: DetailTab) => {
      if (tab === 'info' && !simplified) openContainer(containerKeyOf(c), { view: 'drawer' });
      else setDetail({ key: containerKeyOf(c), tab });
    },
    [simplified, openContainer],
  );
  // A viewer's row actions stay disabled, as while one is pending (the server refuses them).
  const canOperate = useCan('operate');
  const busy = action.isPending || !canOperate;
  const canReadLogs = useCanReadLogs();
  const rowActions = useMemo(
    () => ({ act, open, busy, canReadLogs, withUpdates, healthChecks, openAlerts }),
    [act, open, busy, canReadLogs, withUpdates, healthChecks, openAlerts],
  );
  const linked = params.get('containerId');
  useEffect(() => {
    if (linked === null || scopedHostId !== undefined) return;
    setParams(
      (prev) => {
        prev.delete('containerId');
        return prev;
      },
      { replace: true },
    );
  }, [linked, scopedHostId, setParams]);
  const closePanel = useCallback(() => setJobId(null), []);
  // The same element while its inputs are, so a live message that changes rows only does not
  // draw the search box and the filter menus again.
  const toolbar = useMemo(
    () =>
      phone ? (
        <ContainerPhoneToolbar
          hosts={hosts}
          filters={filters}
          onFilters={setFilters}
          search={search}
          onSearch={setSearch}
          count={visible.length}
          scopedHostId={scopedHostId}
          selecting={selecting}
          onSelecting={(on) => {
            setSelecting(on);
            if (!on) setSelection({});
          }}
          onSelectAll={() =>
            setSelection(Object.fromEntries(visible.map((c) => [containerKeyOf(c), true])))
          }
        />
      ) : (
        <ContainerFiltersBar
          hosts={hosts}
          filters={filters}
          onFilters={setFilters}
          search={search}
          onSearch={setSearch}
          count={visible.length}
          scopedHostId={scopedHostId}
        />
      ),
    [phone, hosts, filters, setFilters, search, visible, scopedHostId, selecting],
  );

  if (containers.isPending)
    return (
      <div className="space-y-2" aria-busy="true">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    );
  // Only without rows: a background refetch that fails (a server restart, a dropped request)
  // keeps the rows, which the live channel goes on updating, instead of replacing the table.
  if (containers.data === undefined)
    return <p className="text-sm text-red-300">Failed to load containers. Please try again.</p>;

  return (
    <div>
      <ContainersTable
        containers={visible}
        actions={rowActions}
        selection={selection}
        onSelectionChange={setSelection}
        sorting={sorting}
        onSortingChange={setSorting}
        toolbar={toolbar}
        cards={phone ? { selecting, onLongPress: selectByLongPress } : undefined}
      />
      {visible.length === 0 && (
        <div className="mt-4">
          <EmptyState icon={Box} title="No containers found" />
        </div>
      )}
      {selected.length > 0 && (
        <BulkBar
          selected={selected}
          onStarted={(id) => {
            setSelection({});
            setSelecting(false);
            setJobId(id);
          }}
        />
      )}
      {jobId !== null && <BatchPanel key={jobId} jobId={jobId} onClose={closePanel} />}
      {detail !== null && (
        <ContainerDetailDialog
          key={detail.key}
          containerKey={detail.key}
          tab={detail.tab}
          onClose={() => setDetail(null)}
        />
      )}
    </div>
  );
}
