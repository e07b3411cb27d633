import {
  alertStatsSchema,
  containerKeyOf,
  containerSchema,
  eventsResponseSchema,
  globalSettingsSchema,
  healthResponseSchema,
  hostSchema,
  preferencesSchema,
  updatesSummarySchema,
  type Container,
  type HostStats,
  type Sparklines,
} from '@berth/contracts';
import { queryOptions, replaceEqualDeep } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from './api-client';
import { groupedBy } from './grouped-by';

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

/** One host, refreshed every 2 s while a drawer or modal shows it. */
export const hostDetailQueryOptions = (hostId: string) =>
  queryOptions({
    queryKey: ['hosts', 'detail', hostId],
    queryFn: () => api(`/hosts/${hostId}`, hostSchema),
    refetchInterval: 2000,
  });

/**
 * The dashboard's view of hosts: the same entry as every other list of hosts (so the answer
 * asked for at boot, or written by initial_state, draws the cards at once), refreshed every
 * 10 s while the dashboard shows it. Stats and sparklines come from containers_update.
 */
export const dashboardHostsQueryOptions = () =>
  queryOptions({ ...hostsQueryOptions(), refetchInterval: 10_000 });

/**
 * What the browser knows of containers: the list (GET /containers, then containers_update)
 * and what only the live channel carries (container and host sparklines, host aggregates).
 * One cache entry, so a live message is one `setQueryData` and one round of notifications
 * (docs/decisions/006, 010); screens read their part through `select`.
 */
export interface ContainersData {
  containers: Container[];
  container_sparklines: Record<string, Sparklines>;
  host_metrics: Record<string, HostStats>;
  host_sparklines: Record<string, Sparklines>;
}

export const NO_CONTAINERS: ContainersData = {
  containers: [],
  container_sparklines: {},
  host_metrics: {},
  host_sparklines: {},
};

/**
 * `next` with every container that equals the one of the same key in `previous` replaced by
 * that one, so rows of unchanged containers stay the same objects (memoised rows skip them).
 * Matched by key, not by position: one container added at the top would otherwise shift
 * every comparison.
 */
export function shareContainers(previous: readonly Container[], next: Container[]): Container[] {
  if (previous.length === 0) return next;
  const before = new Map(previous.map((c) => [containerKeyOf(c), c]));
  let same = previous.length === next.length;
  const out = next.map((c, i) => {
    const p = before.get(containerKeyOf(c));
    const shared = p === undefined ? c : replaceEqualDeep(p, c);
    if (shared !== previous[i]) same = false;
    return shared;
  });
  return same ? (previous as Container[]) : out;
}

/** The list as fetched, the live parts kept: only the live channel carries those. */
const containersEntryOptions = () =>
  queryOptions({
    queryKey: ['containers'],
    queryFn: async ({ client, queryKey }): Promise<ContainersData> => {
      const list = await api('/containers', z.array(containerSchema));
      const current = client.getQueryData<ContainersData>(queryKey) ?? NO_CONTAINERS;
      const containers = shareContainers(current.containers, list);
      return containers === current.containers ? current : { ...current, containers };
    },
    refetchInterval: 5000,
    structuralSharing: shareContainersEntry,
  });

/**
 * Structural sharing of the containers entry and of what screens select from it: shallow.
 * Both writers keep unchanged parts the same objects by themselves (the fetch above by key,
 * the live channel by applying deltas to the objects it has), so a selection (the list, one
 * host's containers, one container, sparklines) is unchanged exactly when its parts are
 * identical. The default deep comparison would walk every changed container of every message
 * again, once per screen that selects it, and hand back copies instead of the entry's objects.
 */
export function shareContainersEntry(previous: unknown, next: unknown): unknown {
  if (previous === next || typeof previous !== 'object' || typeof next !== 'object') return next;
  if (previous === null || next === null) return next;
  if (Array.isArray(next))
    return Array.isArray(previous) &&
      previous.length === next.length &&
      next.every((v, i) => v === previous[i])
      ? previous
      : next;
  if (Object.getPrototypeOf(next) !== Object.prototype || Array.isArray(previous)) return next;
  const a = previous as Record<string, unknown>;
  const b = next as Record<string, unknown>;
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]) ? a : b;
}

/** Every container; the query every container screen starts from. */
export const containersQueryOptions = () =>
  queryOptions({
    ...containersEntryOptions(),
    select: (data: ContainersData) => data.containers,
  });

const NO_HOST_CONTAINERS: Container[] = [];
/** The list grouped by host, once per list however many screens (fifty cards) ask for it. */
const containersByHost = groupedBy((c: Container) => c.host_id);

/** One host's containers; the entry's shallow sharing keeps the array while none changed. */
export const hostContainersQueryOptions = (hostId: string) =>
  queryOptions({
    ...containersEntryOptions(),
    select: (data: ContainersData) =>
      containersByHost(data.containers).get(hostId) ?? NO_HOST_CONTAINERS,
  });

/** The containers entry read as a whole (the dashboard merges host figures from it). */
export const liveContainersQueryOptions = containersEntryOptions;

export const recentEventsQueryOptions = (limit = 10) =>
  queryOptions({
    queryKey: ['events', 'recent', limit],
    queryFn: () => api('/events', eventsResponseSchema, { params: { limit } }),
    staleTime: 10_000,
  });

/** The root key every events query starts with, for invalidation on new_event. */
export const eventsRootKey = () => recentEventsQueryOptions().queryKey.slice(0, 1);

/** Per-container sparklines by container key; only containers_update carries them. */
export const containerSparklinesQueryOptions = () =>
  queryOptions({
    ...containersEntryOptions(),
    select: (data: ContainersData) => data.container_sparklines,
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

/** Events of one container, newest first (the Events tab fetches 200). */
export const containerEventsQueryOptions = (hostId: string, containerId: string, limit: number) =>
  queryOptions({
    queryKey: ['events', 'container', hostId, containerId, limit],
    queryFn: () =>
      api(`/hosts/${hostId}/events/container/${containerId}`, eventsResponseSchema, {
        params: { limit },
      }),
    refetchInterval: 5000,
  });
