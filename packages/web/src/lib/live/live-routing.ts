import {
  applyContainersUpdate,
  type ContainersUpdate,
  type Host,
  type LiveContainersState,
  type LiveMessage,
  type LiveMessageType,
} from '@berth/contracts';
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
 * into the cache, instead of fetching both again every 2 s. The message is a delta after the
 * first (docs/decisions/010): the router keeps the state it applies to, and one message
 * becomes one write per cached key. Unchanged containers, series and hosts stay the same
 * objects, so only what changed re-renders.
 */
export class LiveRouter {
  private containers: LiveContainersState | null = null;
  private awaitingFull = false;

  constructor(
    private readonly queryClient: QueryClient,
    /** Asks the server for the full state (a containers_update was missed). */
    private readonly requestFullState: () => void = () => undefined,
  ) {}

  route(message: LiveMessage): void {
    if (message.type === 'containers_update') this.applyContainers(message.data);
    else
      for (const key of REFRESH_TABLE[message.type] ?? [])
        void this.queryClient.invalidateQueries({ queryKey: key() });
  }

  private applyContainers(update: ContainersUpdate): void {
    const before = this.containers;
    const next = applyContainersUpdate(before, update);
    if (next === null) {
      // A gap: the rows stay as they were (never half-updated) until the full state arrives.
      this.containers = null;
      if (!this.awaitingFull) this.requestFullState();
      this.awaitingFull = true;
      return;
    }
    if (update.full) this.awaitingFull = false;
    this.containers = next;
    const qc = this.queryClient;
    if (next.containers !== before?.containers)
      qc.setQueryData(containersQueryOptions().queryKey, next.containers);
    if (next.container_sparklines !== before?.container_sparklines)
      qc.setQueryData(containerSparklinesQueryOptions().queryKey, next.container_sparklines);
    writeDashboardHosts(qc, next, next.containers !== before?.containers);
  }
}

function writeDashboardHosts(
  qc: QueryClient,
  state: LiveContainersState,
  containersChanged: boolean,
): void {
  const counts = new Map<string, { total: number; running: number }>();
  if (containersChanged)
    for (const c of state.containers) {
      let n = counts.get(c.host_id);
      if (n === undefined) counts.set(c.host_id, (n = { total: 0, running: 0 }));
      n.total++;
      if (c.state === 'running') n.running++;
    }
  qc.setQueryData<Host[]>(dashboardHostsQueryOptions().queryKey, (current) =>
    current?.map((host) => {
      const stats = state.host_metrics[host.id] ?? host.stats;
      const sparklines = state.host_sparklines[host.id] ?? host.sparklines;
      // Only online hosts report containers; an offline host keeps what the server said.
      const online = host.status === 'online' || host.status === 'degraded';
      const n =
        online && containersChanged ? (counts.get(host.id) ?? { total: 0, running: 0 }) : null;
      if (
        stats === host.stats &&
        sparklines === host.sparklines &&
        (n === null || (n.total === host.containers.total && n.running === host.containers.running))
      )
        return host;
      return {
        ...host,
        stats,
        sparklines,
        ...(n === null
          ? {}
          : {
              container_count: n.total,
              containers: { total: n.total, running: n.running, stopped: n.total - n.running },
            }),
      };
    }),
  );
}

/**
 * Refreshes the cached data a message names, without state between messages (a
 * containers_update applies only when full): for tests and one-off use; the live provider
 * keeps a `LiveRouter`.
 */
export function routeLiveMessage(message: LiveMessage, queryClient: QueryClient): void {
  new LiveRouter(queryClient).route(message);
}
