import type { BerthEvent } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { ArrowDownWideNarrow, ArrowUpNarrowWide, Download, RotateCcw } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { usePhone } from '@/hooks/use-breakpoint';
import { useContainerPanels } from '@/lib/container-panels';
import { containerKeyOf } from '@berth/contracts';
import { downloadEventsCsv } from '@/lib/events-csv';
import { useHostPanels } from '@/lib/host-panels';
import { usePreferences } from '@/lib/preferences';
import { containersQueryOptions, hostsQueryOptions } from '@/lib/queries';
import {
  EventsFetchError,
  eventLogQueryOptions,
  fetchAllEvents,
  MAX_EXPORT,
  useEventSortOrder,
} from '../api/events-api';
import { useLiveRefresh } from '../hooks/use-live-refresh';
import { usePageSize } from '../hooks/use-page-size';
import {
  eventQuery,
  NO_FILTERS,
  pageInfo,
  readFilters,
  scopeFilter,
  writeFilters,
  type EventFilters,
} from '../lib/event-filters';
import { EventFiltersBar } from './event-filters-bar';
import { EventCards, EventsTable, type EventLinks } from './events-table';

/** The Event Log: filters in the query string, a server-side page, CSV export. */
export function EventsPage() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readFilters(params), [params]);
  const scopeId = params.get('scope_id');
  const [limit, resetLimit] = usePageSize();
  const [page, setPage] = useState(0);
  const sort = useEventSortOrder();
  const hosts = useQuery(hostsQueryOptions());
  const containers = useQuery(containersQueryOptions());
  useLiveRefresh();
  const phone = usePhone();

  // ?scope_id= (an alert's scope) becomes the host or container filter once both lists are in.
  const listsSettled = !hosts.isPending && !containers.isPending;
  useEffect(() => {
    if (scopeId === null || !listsSettled) return;
    const scope = scopeFilter(scopeId, hosts.data ?? [], containers.data ?? []);
    setParams(
      (prev) => {
        const next = writeFilters(prev, { ...readFilters(prev), ...scope });
        next.delete('scope_id');
        return next;
      },
      { replace: true },
    );
  }, [scopeId, listsSettled, hosts.data, containers.data, setParams]);

  const setFilters = (next: EventFilters) => {
    setPage(0);
    setParams((prev) => writeFilters(prev, next));
  };

  // The page stays within the total last answered (fewer events after a refetch, a taller
  // window); while a new page loads, the previous answer stands in for it.
  const [total, setTotal] = useState(0);
  const lastPage = Math.max(0, Math.ceil(total / limit) - 1);
  const current = Math.min(page, lastPage);
  const offset = current * limit;
  const query = useQuery({
    ...eventLogQueryOptions(eventQuery(filters, sort.order, limit, offset)),
    enabled: sort.ready && scopeId === null,
  });
  const answered = query.data?.total_count;
  if (answered !== undefined && answered !== total) setTotal(answered);

  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await fetchAllEvents(eventQuery(filters, sort.order, limit, 0));
      downloadEventsCsv(all.events, 'events', { host: true });
      if (all.total > all.events.length)
        toast.info(`Exported the first ${MAX_EXPORT} of ${all.total} events`);
    } catch {
      toast.error('Failed to export events');
    } finally {
      setExporting(false);
    }
  };

  const reset = () => {
    setPage(0);
    resetLimit();
    setParams(writeFilters(new URLSearchParams(), NO_FILTERS));
  };

  const { openHost } = useHostPanels();
  const { openContainer } = useContainerPanels();
  const simplified = usePreferences().data?.simplified_workflow ?? true;
  const links = useMemo<EventLinks>(() => {
    const hostIds = new Set((hosts.data ?? []).map((h) => h.id));
    const keys = new Set((containers.data ?? []).map(containerKeyOf));
    return {
      host: (e: BerthEvent) => {
        const id = e.host_id;
        return id !== null && hostIds.has(id) ? () => openHost(id) : undefined;
      },
      container: (e: BerthEvent) => {
        const key = e.container_id;
        return key !== null && keys.has(key)
          ? () => openContainer(key, { view: simplified ? 'detail' : 'drawer' })
          : undefined;
      },
    };
  }, [hosts.data, containers.data, openHost, openContainer, simplified]);

  const events = query.data?.events ?? [];
  const info = pageInfo(offset, limit, total);
  const error = query.error instanceof EventsFetchError ? query.error : null;
  const empty = query.isError ? (
    <span className="text-red-300">
      Failed to load events
      {error?.detail != null && <span className="block text-xs">{error.detail}</span>}
    </span>
  ) : query.isPending ? (
    'Loading events…'
  ) : (
    'No events found'
  );

  return (
    <>
      <PageHeader
        title="Event Log"
        subtitle="What happened on your hosts and containers"
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <Button
              variant="secondary"
              size="sm"
              disabled={total === 0 || exporting}
              onClick={() => void exportCsv()}
            >
              <Download className="h-4 w-4" aria-hidden />
              Export CSV
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                setPage(0);
                sort.setOrder(sort.order === 'desc' ? 'asc' : 'desc');
              }}
            >
              {sort.order === 'desc' ? (
                <ArrowDownWideNarrow className="h-4 w-4" aria-hidden />
              ) : (
                <ArrowUpNarrowWide className="h-4 w-4" aria-hidden />
              )}
              {sort.order === 'desc' ? 'Newest First' : 'Oldest First'}
            </Button>
            <Button variant="ghost" size="sm" onClick={reset}>
              <RotateCcw className="h-4 w-4" aria-hidden />
              Reset
            </Button>
          </div>
        }
      />
      <EventFiltersBar
        filters={filters}
        onFilters={setFilters}
        hosts={hosts.data ?? []}
        containers={containers.data ?? []}
        phone={phone}
      />
      {phone ? (
        <EventCards events={query.isError ? [] : events} empty={empty} links={links} />
      ) : (
        <EventsTable events={query.isError ? [] : events} empty={empty} links={links} />
      )}
      {total > 0 && !query.isError && (
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-400">
          <span data-testid="event-log-showing">{info.showing}</span>
          <div className="flex items-center gap-2">
            <Button
              size="sm"
              variant="ghost"
              disabled={current === 0}
              onClick={() => setPage(current - 1)}
            >
              Previous
            </Button>
            <span data-testid="event-log-page" className="tabular-nums">
              {info.page}
            </span>
            <Button
              size="sm"
              variant="ghost"
              disabled={current >= lastPage}
              onClick={() => setPage(current + 1)}
            >
              Next
            </Button>
          </div>
        </div>
      )}
    </>
  );
}
