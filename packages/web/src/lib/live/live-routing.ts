import type { LiveMessage, LiveMessageType } from '@berth/contracts';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import {
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

/** The cache-refresh table of spec 1 §4: which cached data each live message refreshes. */
export const REFRESH_TABLE: Partial<Record<LiveMessageType, (() => QueryKey)[]>> = {
  initial_state: [containers, hosts],
  containers_update: [containers, dashboardHosts],
  new_event: [events],
  host_added: [hosts, containers],
  host_removed: [hosts, containers],
  host_status_changed: [hosts, dashboardHosts],
  auto_restart_success: [containers, events],
  auto_restart_failed: [containers, events],
  blackout_status_changed: [settings],
};

/** Refreshes the cached data a message names; subscribers get every message. */
export function routeLiveMessage(message: LiveMessage, queryClient: QueryClient): void {
  for (const key of REFRESH_TABLE[message.type] ?? []) {
    void queryClient.invalidateQueries({ queryKey: key() });
  }
}
