import {
  containerKey,
  encodeContainersUpdate,
  LIVE_PROTOCOL_SPEC,
  withoutContainerSparklines,
  type Container,
  type HostStats,
  type ContainersUpdate,
  type LiveContainersState,
  type LiveMessageOf,
  type SpecLiveMessage,
  type Sparklines,
} from '@berth/contracts';
import type { LiveClient, LiveHub } from '../../platform/live-hub.js';
import type { LiveScope } from '../../platform/live-scope.js';
import type { Fleet } from '../monitor/index.js';
import { scopedState, scopedUpdate } from './live-scoped.js';

/** State changes are pushed after this quiet period, so a burst becomes one message. */
const PUSH_DEBOUNCE_MS = 25;

type ClientForm = Pick<LiveClient, 'protocol' | 'containerSparklines'>;
type ScopedClient = ClientForm & Pick<LiveClient, 'scope'>;

/** Which containers_update a client gets: the spec's shape, or deltas with or without sparklines. */
function liveForm(client: ClientForm) {
  if (client.protocol === LIVE_PROTOCOL_SPEC) return 'spec';
  return client.containerSparklines ? 'deltas' : 'deltas-lean';
}

/** The spec's containers_update: the whole state, series keyed by host id and container key. */
function specContainersUpdate(state: LiveContainersState, timestamp: string): SpecLiveMessage {
  const { containers, host_metrics, host_sparklines, container_sparklines } = state;
  return {
    type: 'containers_update',
    data: { containers, host_metrics, host_sparklines, container_sparklines, timestamp },
  };
}

/**
 * The live `containers_update`: after every stats pass, and shortly after anything a list
 * shows changed, each client in the form it asked for (docs/decisions/010 and 015).
 */
export class LiveContainers {
  private pushTimer: NodeJS.Timeout | undefined;
  /** The state the last containers_update took every browser to; deltas start from it. */
  private lastLive: LiveContainersState | null = null;

  constructor(
    private readonly deps: {
      fleet: Fleet;
      hub: LiveHub;
      listContainers: () => Container[];
    },
  ) {}

  stop(): void {
    clearTimeout(this.pushTimer);
  }

  /** What `containers_update` brings a browser to: every container, stats and sparklines. */
  private liveState(seq: number): LiveContainersState {
    const { fleet } = this.deps;
    const host_metrics: Record<string, HostStats> = {};
    const host_sparklines: Record<string, Sparklines> = {};
    const container_sparklines: Record<string, Sparklines> = {};
    for (const host of fleet.hosts()) {
      const stats = fleet.hostStats(host.id);
      if (stats === null) continue;
      host_metrics[host.id] = stats;
      const spark = fleet.hostSparklines(host.id);
      if (spark !== null) host_sparklines[host.id] = spark;
      for (const [id, s] of fleet.containerSparklines(host.id))
        container_sparklines[containerKey(host.id, id)] = s;
    }
    return {
      seq,
      containers: this.deps.listContainers(),
      host_metrics,
      host_sparklines,
      container_sparklines,
    };
  }

  /**
   * The full containers_update for one client (just connected, asking after a gap, or in a new
   * scope): the state the last message took everyone else in its scope to, so the next delta
   * (the next tick at most a polling interval away, at once for the first browser) applies to
   * it too.
   */
  full(client: ScopedClient): LiveMessageOf<'containers_update'> | SpecLiveMessage {
    this.lastLive ??= this.liveState(1);
    const { scope } = client;
    const state = scope === null ? this.lastLive : scopedState(this.lastLive, scope);
    const form = liveForm(client);
    if (form === 'spec') return specContainersUpdate(state, new Date().toISOString());
    const full = encodeContainersUpdate(null, state);
    return {
      type: 'containers_update',
      data: form === 'deltas' ? full : withoutContainerSparklines(full),
    };
  }

  /**
   * A containers_update to every client in its form: the spec's clients get every container
   * and series whole; Berth's browsers get what changed since the previous message, with
   * container sparklines only if they show them (on a page without, they were about a quarter
   * of a message's bytes and of the browser's time on it). A scoped user's clients get the
   * message of the hosts they reach, made once per scope.
   */
  publish(): void {
    if (this.deps.hub.connectionCount === 0) return;
    const next = this.liveState((this.lastLive?.seq ?? 0) + 1);
    const data = encodeContainersUpdate(this.lastLive, next);
    this.lastLive = next;
    const scoped = new Map<string, ContainersUpdate>();
    const dataOf = (scope: LiveScope) => {
      let out = scoped.get(scope.key);
      if (out === undefined) scoped.set(scope.key, (out = scopedUpdate(data, scope)));
      return out;
    };
    this.deps.hub.publishByForm(liveForm, (form, scope) => {
      if (form === 'spec')
        return specContainersUpdate(
          scope === null ? next : scopedState(next, scope),
          data.timestamp,
        );
      const update = scope === null ? data : dataOf(scope);
      return {
        type: 'containers_update',
        data: form === 'deltas' ? update : withoutContainerSparklines(update),
      };
    });
  }

  /** Publishes shortly, so a burst of engine events becomes one message. */
  publishSoon(): void {
    if (this.pushTimer !== undefined || this.deps.hub.connectionCount === 0) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      this.publish();
    }, PUSH_DEBOUNCE_MS);
  }
}
