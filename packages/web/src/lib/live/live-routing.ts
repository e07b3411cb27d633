import type { Host, LiveMessage, LiveMessageOf, LiveMessageType } from '@berth/contracts';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { alertsRootKey } from '../alerts';
import {
  containerSparklinesQueryOptions,
  containersQueryOptions,
  dashboardHostsQueryOptions,
  eventsRootKey,
  hostsQueryOptions,
  settingsQueryOptions,
} from '../queries';

const containers = () => containersQueryOptions().queryKey;
const hosts = () => hostsQueryOptions().queryKey;
const dashboardHosts = () => dashboardHostsQueryOptions().queryKey;
const events = () => eventsRootKey();
const settings = () => settingsQueryOptions().queryKey;

/**
 * The cache-refresh table of spec 1 §4: which cached data each live message refreshes.
 * containers_update is not here: it carries the fresh data itself (see below).
 */
export const REFRESH_TABLE: Partial<Record<LiveMessageType, (() => QueryKey)[]>> = {
  initial_state: [containers, hosts],
  new_event: [events],
  host_added: [hosts, containers],
  host_removed: [hosts, containers],
  host_status_changed: [hosts, dashboardHosts],
  auto_restart_success: [containers, events],
  auto_restart_failed: [containers, events],
  blackout_status_changed: [settings],
  alert_raised: [alertsRootKey],
  alert_resolved: [alertsRootKey],
  alert_changed: [alertsRootKey],
};

/**
 * containers_update refreshes containers and dashboard hosts by writing what it carries
 * into the cache, instead of fetching both again every 2 s. Structural sharing keeps every
 * unchanged container and host object identical, so only what changed re-renders.
 */
export function applyContainersUpdate(
  { data }: LiveMessageOf<'containers_update'>,
  queryClient: QueryClient,
): void {
  queryClient.setQueryData(containersQueryOptions().queryKey, data.containers);
  queryClient.setQueryData(containerSparklinesQueryOptions().queryKey, data.container_sparklines);
  queryClient.setQueryData<Host[]>(dashboardHostsQueryOptions().queryKey, (current) =>
    current?.map((host) => {
      const stats = data.host_metrics[host.id];
      const sparklines = data.host_sparklines[host.id];
      const mine = data.containers.filter((c) => c.host_id === host.id);
      const running = mine.filter((c) => c.state === 'running').length;
      return {
        ...host,
        stats: stats ?? host.stats,
        sparklines: sparklines ?? host.sparklines,
        // Only online hosts report containers; an offline host keeps what the server said.
        ...(host.status === 'online' || host.status === 'degraded'
          ? {
              container_count: mine.length,
              containers: { total: mine.length, running, stopped: mine.length - running },
            }
          : {}),
      };
    }),
  );
}

/** Refreshes the cached data a message names; subscribers get every message. */
export function routeLiveMessage(message: LiveMessage, queryClient: QueryClient): void {
  if (message.type === 'containers_update') {
    applyContainersUpdate(message, queryClient);
    return;
  }
  for (const key of REFRESH_TABLE[message.type] ?? []) {
    void queryClient.invalidateQueries({ queryKey: key() });
  }
}
