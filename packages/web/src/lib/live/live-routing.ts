import {
  applyContainersUpdate,
  withoutContainerSparklines,
  type ClientLiveMessage,
  type ContainersUpdate,
  type Host,
  type HostStats,
  type LiveContainersState,
  type LiveMessage,
  type LiveMessageType,
  type Sparklines,
} from '@berth/contracts';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { alertsRootKey } from '../alerts';
import {
  containersQueryOptions,
  eventsRootKey,
  hostsQueryOptions,
  liveContainersQueryOptions,
  meQueryOptions,
  settingsQueryOptions,
  shareContainers,
  shareContainersEntry,
  type ContainersData,
} from '../queries';

const containers = () => containersQueryOptions().queryKey;
const NO_SERIES: Record<string, Sparklines> = {};
const hosts = () => hostsQueryOptions().queryKey;
const events = () => eventsRootKey();
const settings = () => settingsQueryOptions().queryKey;
const me = () => meQueryOptions().queryKey;

/**
 * The cache-refresh table: which cached data each live message refreshes
 * (dashboard hosts are the hosts entry: queries.ts). containers_update and initial_state
 * are not here: they carry the fresh data themselves (see below).
 */
export const REFRESH_TABLE: Partial<Record<LiveMessageType, (() => QueryKey)[]>> = {
  new_event: [events],
  host_added: [hosts, containers],
  host_removed: [hosts, containers],
  host_status_changed: [hosts],
  auto_restart_success: [containers, events],
  auto_restart_failed: [containers, events],
  blackout_status_changed: [settings],
  alert_raised: [alertsRootKey],
  alert_resolved: [alertsRootKey],
  alert_changed: [alertsRootKey],
  // A role or scope changed by an admin or a sign-on claim: menus and actions follow it.
  account_changed: [me],
};

/**
 * What a connect refreshes: the refresh table's data, less the hosts and containers every
 * connect carries. A message sent while the socket was down, or before its first connect (it
 * waits for the first screen to be drawn), never arrives, and these have no other news.
 */
function refreshedOnConnect(): QueryKey[] {
  const carried = new Set([hosts(), containers()].map((k) => JSON.stringify(k)));
  const keys = new Map<string, QueryKey>();
  for (const key of Object.values(REFRESH_TABLE).flat()) keys.set(JSON.stringify(key()), key());
  return [...keys].filter(([id]) => !carried.has(id)).map(([, key]) => key);
}

/**
 * containers_update refreshes containers and dashboard hosts by writing what it carries
 * into the cache, instead of fetching both again every 2 s. The message is a delta after the
 * first (docs/decisions/010): the router keeps the state it applies to, and one message is
 * one `setQueryData` of the containers entry (list, sparklines, host figures: queries.ts),
 * so screens are notified once. Unchanged containers, series and host figures stay the same
 * objects, so only what changed re-renders.
 */
export class LiveRouter {
  private containers: LiveContainersState | null = null;
  private awaitingFull = false;
  /** Container sparklines were left out of messages since the last full state. */
  private sparklinesDropped = false;

  constructor(
    private readonly queryClient: QueryClient,
    /** Sends to the server: asks for the full state, says whether sparklines are shown. */
    private readonly send: (message: ClientLiveMessage) => void = () => undefined,
    /** Whether a screen shows container sparklines now (`useContainerSparklinesShown`). */
    private readonly containerSparklinesShown: () => boolean = () => true,
  ) {
    // The entry may be written here before any screen asked for it: it must be taken as
    // written then too (no deep comparison of every container), as its own options say.
    queryClient.setQueryDefaults(liveContainersQueryOptions().queryKey, {
      structuralSharing: shareContainersEntry,
    });
  }

  route(message: LiveMessage): void {
    if (message.type === 'containers_update') this.applyContainers(message.data);
    else if (message.type === 'initial_state') this.applyInitialState(message.data.hosts);
    else
      for (const key of REFRESH_TABLE[message.type] ?? [])
        void this.queryClient.invalidateQueries({ queryKey: key() });
  }

  /**
   * initial_state (sent on every connect) refreshes hosts by what it carries, and containers
   * by the full containers_update the server sent just before it on the same socket, not by
   * asking for both again (with 1,000 containers a refetch of both took half a second of a
   * busy server and the browser's main thread during the first render). The smaller data
   * only one-shot messages refresh is asked for again (`refreshedOnConnect`).
   */
  private applyInitialState(hosts: Host[]): void {
    this.queryClient.setQueryData(hostsQueryOptions().queryKey, hosts);
    for (const key of refreshedOnConnect())
      void this.queryClient.invalidateQueries({ queryKey: key });
  }

  /**
   * A screen that shows container sparklines appeared: the server sends them again, starting
   * with a full state (within a round trip; until then the screen has none).
   */
  containerSparklinesWanted(): void {
    this.send({ type: 'container_sparklines', shown: true });
    if (this.sparklinesDropped) this.awaitingFull = true;
  }

  /** No screen shows container sparklines any more: the server stops sending them. */
  containerSparklinesUnwanted(): void {
    this.send({ type: 'container_sparklines', shown: false });
  }

  private requestFullState(): void {
    if (!this.awaitingFull) this.send({ type: 'containers_resync' });
    this.awaitingFull = true;
  }

  private applyContainers(received: ContainersUpdate): void {
    // Every running container's three series move on every message, and most screens (the
    // containers table among them) show none: unless one does, the server leaves them out, and
    // so does the router with what comes before the server heard (bench/containers).
    const shown = this.containerSparklinesShown();
    const update = shown ? received : withoutContainerSparklines(received);
    if (received.full) this.sparklinesDropped = !shown;
    else if (!shown) this.sparklinesDropped = true;
    const before = this.containers;
    let next = applyContainersUpdate(
      before === null || shown ? before : { ...before, container_sparklines: NO_SERIES },
      update,
    );
    if (next === null) {
      // A gap: the rows stay as they were (never half-updated) until the full state arrives.
      this.containers = null;
      this.requestFullState();
      return;
    }
    const key = liveContainersQueryOptions().queryKey;
    const cached = this.queryClient.getQueryData<ContainersData>(key);
    if (update.full) {
      this.awaitingFull = false;
      // A full state (connect, resync) names every container anew: the rows already shown
      // (from GET /containers, or before the gap) keep their objects where nothing changed,
      // and the deltas after it apply to those same objects.
      next = { ...next, containers: shareContainers(cached?.containers ?? [], next.containers) };
    }
    next = { ...next, host_metrics: shareHostMetrics(before?.host_metrics, next.host_metrics) };
    this.containers = next;
    this.queryClient.setQueryData<ContainersData>(key, {
      containers: next.containers,
      container_sparklines: next.container_sparklines,
      host_metrics: next.host_metrics,
      host_sparklines: next.host_sparklines,
    });
  }
}

/** Every message carries every host's aggregates whole; equal ones keep the earlier object. */
function shareHostMetrics(
  before: Record<string, HostStats> | undefined,
  next: Record<string, HostStats>,
): Record<string, HostStats> {
  if (before === undefined) return next;
  const out: Record<string, HostStats> = {};
  let same = Object.keys(before).length === Object.keys(next).length;
  for (const [id, stats] of Object.entries(next)) {
    const p = before[id];
    const equal =
      p !== undefined &&
      Object.keys(p).length === Object.keys(stats).length &&
      (Object.keys(stats) as (keyof HostStats)[]).every((f) => p[f] === stats[f]);
    out[id] = equal ? p : stats;
    if (!equal) same = false;
  }
  return same ? before : out;
}

/**
 * Refreshes the cached data a message names, without state between messages (a
 * containers_update applies only when full): for tests and one-off use; the live provider
 * keeps a `LiveRouter`.
 */
export function routeLiveMessage(message: LiveMessage, queryClient: QueryClient): void {
  new LiveRouter(queryClient).route(message);
}
