import {
  alertListResponseSchema,
  alertStatsSchema,
  containerSchema,
  eventsResponseSchema,
  globalSettingsSchema,
  healthResponseSchema,
  hostSchema,
  preferencesSchema,
  updatesSummarySchema,
  type Sparklines,
} from '@berth/contracts';
import { queryOptions, skipToken } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from './api-client';

/**
 * Query options shared across features and the live channel. Every query key in the app
 * comes from a factory here or in a feature's api/ folder, never from a literal.
 */
export { meQueryOptions } from './session';

export const healthQueryOptions = () =>
  queryOptions({
    queryKey: ['health'],
    queryFn: () => api('/health', healthResponseSchema),
    staleTime: 5 * 60_000,
  });

export const preferencesQueryOptions = () =>
  queryOptions({
    queryKey: ['preferences'],
    queryFn: () => api('/v2/user/preferences', preferencesSchema),
    staleTime: 5 * 60_000,
    retry: 1,
  });

export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: ['settings'],
    queryFn: () => api('/settings', globalSettingsSchema),
    staleTime: 5 * 60_000,
    refetchInterval: 30_000,
  });

export const hostsQueryOptions = () =>
  queryOptions({
    queryKey: ['hosts'],
    queryFn: () => api('/hosts', z.array(hostSchema)),
    staleTime: 30_000,
    refetchInterval: 60_000,
  });

/** One host, refreshed every 2 s while a drawer or modal shows it (spec 1 §2). */
export const hostDetailQueryOptions = (hostId: string) =>
  queryOptions({
    queryKey: ['hosts', 'detail', hostId],
    queryFn: () => api(`/hosts/${hostId}`, hostSchema),
    refetchInterval: 2000,
  });

/** The dashboard's view of hosts (stats, sparklines); refreshed by containers_update. */
export const dashboardHostsQueryOptions = () =>
  queryOptions({
    queryKey: ['hosts', 'dashboard'],
    queryFn: () => api('/hosts', z.array(hostSchema)),
    refetchInterval: 10_000,
  });

export const containersQueryOptions = () =>
  queryOptions({
    queryKey: ['containers'],
    queryFn: () => api('/containers', z.array(containerSchema)),
    refetchInterval: 5000,
  });

export const recentEventsQueryOptions = (limit = 10) =>
  queryOptions({
    queryKey: ['events', 'recent', limit],
    queryFn: () => api('/events', eventsResponseSchema, { params: { limit } }),
    staleTime: 10_000,
  });

/** The root key every events query starts with, for invalidation on new_event. */
export const eventsRootKey = () => recentEventsQueryOptions().queryKey.slice(0, 1);

/** Per-container sparklines, written only by containers_update (no fetch of its own). */
export const containerSparklinesQueryOptions = () =>
  queryOptions<Record<string, Sparklines>>({
    queryKey: ['containers', 'sparklines'],
    queryFn: skipToken,
    staleTime: Infinity,
  });

/** Open alerts, for counts (hosts table, delete impact); spec 3 §7. */
export const openAlertsQueryOptions = () =>
  queryOptions({
    queryKey: ['alerts', 'open'],
    queryFn: () =>
      api('/alerts/', alertListResponseSchema, { params: { state: 'open', page_size: 500 } }),
    refetchInterval: 5000,
  });

export const alertStatsQueryOptions = () =>
  queryOptions({
    queryKey: ['alerts', 'stats'],
    queryFn: () => api('/alerts/stats/', alertStatsSchema),
    refetchInterval: 5000,
  });

export const updatesSummaryQueryOptions = () =>
  queryOptions({
    queryKey: ['updates', 'summary'],
    queryFn: () => api('/updates/summary', updatesSummarySchema),
    refetchInterval: 60_000,
  });

/** Events of one host, newest first. */
export const hostEventsQueryOptions = (hostId: string, limit: number) =>
  queryOptions({
    queryKey: ['events', 'host', hostId, limit],
    queryFn: () => api(`/events/host/${hostId}`, eventsResponseSchema, { params: { limit } }),
    refetchInterval: 3000,
  });

/** Events of one container, newest first (spec 2 §2.4: the Events tab fetches 200). */
export const containerEventsQueryOptions = (hostId: string, containerId: string, limit: number) =>
  queryOptions({
    queryKey: ['events', 'container', hostId, containerId, limit],
    queryFn: () =>
      api(`/hosts/${hostId}/events/container/${containerId}`, eventsResponseSchema, {
        params: { limit },
      }),
    refetchInterval: 5000,
  });
