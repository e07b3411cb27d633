import {
  alertAnnotationListSchema,
  alertAnnotationSchema,
  alertListResponseSchema,
  alertSchema,
  alertStatsSchema,
  type Alert,
  type AlertListQuery,
} from '@berth/contracts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { groupedBy } from './grouped-by';

/** Alerts refetch every 30 s and are stale after 30 s; annotations after 60 s. */
const REFETCH_MS = 30_000;
const STALE_MS = 30_000;
const ANNOTATIONS_STALE_MS = 60_000;

/** The panel's snooze choices in minutes; the bulk bar drops 30. */
export const PANEL_SNOOZE = [
  { minutes: 15, label: '15 min' },
  { minutes: 30, label: '30 min' },
  { minutes: 60, label: '1 h' },
  { minutes: 240, label: '4 h' },
  { minutes: 1440, label: '24 h' },
] as const;
export const BULK_SNOOZE = [
  { minutes: 15, label: '15 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 240, label: '4 hours' },
  { minutes: 1440, label: '24 hours' },
] as const;

export const ALERT_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;

/** The colour of each severity, as a badge. */
export const ALERT_SEVERITY_TONE: Record<Alert['severity'], string> = {
  critical: 'bg-red-500/20 text-red-300',
  error: 'bg-orange-500/20 text-orange-300',
  warning: 'bg-amber-500/20 text-amber-200',
  info: 'bg-sky-500/20 text-sky-200',
};

/** Just now, Nm ago, Nh ago, Nd ago (under 7 days), otherwise a date. */
export function alertTimeAgo(iso: string | null, now = Date.now()): string {
  if (iso === null) return '—';
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d ago`;
  return new Date(iso).toLocaleDateString();
}

/** Every alert query starts with this key; live alert messages refresh it (see live-routing). */
export const alertsRootKey = () => ['alerts'] as const;

/** A failed call throws the catalogue's text. */
async function call<T>(message: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const detail = err instanceof Error && err.message !== '' ? `: ${err.message}` : '';
    throw new Error(`${message}${detail}`, { cause: err });
  }
}

export type AlertFilters = Partial<Omit<AlertListQuery, 'page' | 'page_size'>>;

/** GET /api/alerts/ with filters, one page. */
export const alertListQueryOptions = (filters: AlertFilters, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['alerts', 'list', filters, page, pageSize],
    queryFn: () =>
      call('Failed to fetch alerts', () =>
        api('/alerts/', alertListResponseSchema, {
          params: { ...filters, page, page_size: pageSize },
        }),
      ),
    refetchInterval: REFETCH_MS,
    staleTime: STALE_MS,
    placeholderData: keepPreviousData,
  });

export const alertDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['alerts', 'detail', id],
    queryFn: () => call('Failed to fetch alert', () => api(`/alerts/${id}`, alertSchema)),
    refetchInterval: REFETCH_MS,
    staleTime: STALE_MS,
  });

export const alertSummaryQueryOptions = () =>
  queryOptions({
    queryKey: ['alerts', 'summary'],
    queryFn: () =>
      call('Failed to fetch alert stats', () => api('/alerts/stats/', alertStatsSchema)),
    refetchInterval: REFETCH_MS,
    staleTime: STALE_MS,
  });

export const alertAnnotationsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['alerts', 'annotations', id],
    queryFn: () =>
      call('Failed to fetch annotations', () =>
        api(`/alerts/${id}/annotations`, alertAnnotationListSchema),
      ),
    staleTime: ANNOTATIONS_STALE_MS,
  });

/** Snooze, unsnooze and resolve of one alert; each refreshes every alert query. */
export function useAlertActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertsRootKey() });
  const snooze = useMutation({
    mutationFn: ({ id, minutes }: { id: string; minutes: number }) =>
      call('Failed to snooze', () =>
        api(`/alerts/${id}/snooze`, alertSchema, {
          method: 'POST',
          body: { duration_minutes: minutes },
        }),
      ),
    onSettled: refresh,
  });
  const unsnooze = useMutation({
    mutationFn: (id: string) =>
      call('Failed to unsnooze', () =>
        api(`/alerts/${id}/unsnooze`, alertSchema, { method: 'POST', body: {} }),
      ),
    onSettled: refresh,
  });
  const resolve = useMutation({
    mutationFn: (id: string) =>
      call('Failed to resolve', () =>
        api(`/alerts/${id}/resolve`, alertSchema, {
          method: 'POST',
          body: { reason: 'Manually resolved' },
        }),
      ),
    onSettled: refresh,
  });
  return { snooze, unsnooze, resolve };
}

export function useAddAnnotation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      call('Failed to add annotation', () =>
        api(`/alerts/${id}/annotations`, alertAnnotationSchema, {
          method: 'POST',
          body: { text },
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: alertAnnotationsQueryOptions(id).queryKey }),
  });
}

/**
 * Open alerts, for the counts of the containers and hosts tables and the delete impact. Counts
 * refetch and go stale as the alerts do; alert_raised, alert_resolved and
 * alert_changed refresh them at once in between (lib/live/live-routing.ts).
 */
export const openAlertsQueryOptions = () =>
  queryOptions({
    queryKey: ['alerts', 'open'],
    queryFn: () =>
      api('/alerts/', alertListResponseSchema, { params: { state: 'open', page_size: 500 } }),
    refetchInterval: REFETCH_MS,
    staleTime: STALE_MS,
  });

/** Open alerts grouped by scope id, computed once per answer for every table cell. */
export const openAlertsByScope = groupedBy((a: Alert) => a.scope_id);
