import { eventsResponseSchema, metricsResponseSchema } from '@berth/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import { markerQuery, markersOf, type MarkerTarget } from './markers';
import type { TimeWindow } from './range';

/** A host's history (containerId null) or one of its containers'. */
export interface HistoryTarget {
  hostId: string;
  containerId: string | null;
}

/** A refused question (400: the range, 404: no such container) is not asked again. */
const retry = (count: number, err: Error) =>
  !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2;

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/**
 * GET /api/hosts/:hostId/metrics or …/containers/:containerId/metrics over a window; without a
 * step the server picks the tier. The previous answer stays on screen while the next loads.
 */
export const metricsHistoryQueryOptions = (target: HistoryTarget, w: TimeWindow, step?: number) =>
  queryOptions({
    queryKey: ['metrics-history', target.hostId, target.containerId, w.from, w.to, step ?? null],
    queryFn: () => {
      const base = `/hosts/${encodeURIComponent(target.hostId)}`;
      const path =
        target.containerId === null
          ? `${base}/metrics`
          : `${base}/containers/${encodeURIComponent(target.containerId)}/metrics`;
      return api(path, metricsResponseSchema, {
        params: { from: iso(w.from), to: iso(w.to), step },
      });
    },
    placeholderData: keepPreviousData,
    staleTime: 5000,
    retry,
  });

/** The alerts and container events of a window, as markers for the time axis. */
export const historyMarkersQueryOptions = (target: MarkerTarget, w: TimeWindow) =>
  queryOptions({
    queryKey: ['history-markers', target, w],
    queryFn: async () => {
      const answer = await api('/events', eventsResponseSchema, { params: markerQuery(target, w) });
      return markersOf(answer.events, target, w);
    },
    placeholderData: keepPreviousData,
    staleTime: 5000,
    retry,
  });

export const useMetricsHistory = (target: HistoryTarget, w: TimeWindow, step?: number) =>
  useQuery(metricsHistoryQueryOptions(target, w, step));

export const useHistoryMarkers = (target: MarkerTarget, w: TimeWindow) =>
  useQuery(historyMarkersQueryOptions(target, w));
