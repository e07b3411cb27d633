import {
  containerKey,
  type AutoUpdateConfigs,
  type Container,
  type Host,
  type LiveMessageOf,
  type SpecLiveMessage,
} from '@berth/contracts';
import type { LiveClient, LiveHub } from '../../platform/live-hub.js';
import { suggestTags } from '../../platform/tag-suggestions.js';
import type { ContainerSettings } from '../container-settings/index.js';
import type { HostEvents, HostRow, HostsService } from '../hosts/index.js';
import type { Fleet } from '../monitor/index.js';
import type { SettingsService } from '../settings/index.js';
import { toContainer } from './container-shape.js';
import { NO_HOST_COUNTS, toHost, type AgentHostFacts, type HostCounts } from './host-shape.js';
import { LiveContainers } from './live-containers.js';

/** How long one written container list may be handed out while nothing changes. */
const LIST_CACHE_MS = 1000;

export interface ContainerViewDeps {
  fleet: Fleet;
  hub: LiveHub;
  settings: Pick<SettingsService, 'get'>;
  containerSettings: Pick<ContainerSettings, 'get'>;
  hosts: Pick<HostsService, 'get'> & HostEvents;
  /** Per-host counts kept by the modules that own them. */
  counts: {
    alertsByHost(): Promise<Map<string, Host['alerts']>>;
    updatesByHost(): Promise<Map<string, number>>;
    /** Agent hosts' connections and refusals, from the agents module. */
    agentsByHost(): Promise<Map<string, AgentHostFacts>>;
  };
}

/**
 * Containers and hosts as the API and the live channel show them: the monitor's engine facts,
 * the user's container settings, live stats, and the alert and update counts. Sits above all
 * of those; none of them knows it.
 */
export class ContainerView {
  private readonly live: LiveContainers;
  /** Counts changes to what the container list shows (engine events, actions, stats passes). */
  private changes = 0;
  private listCache: { key: string; at: number; json: string } | null = null;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly deps: ContainerViewDeps) {
    this.live = new LiveContainers({
      fleet: deps.fleet,
      hub: deps.hub,
      listContainers: () => this.listContainers(),
    });
  }

  start(): void {
    const { fleet, hosts, hub } = this.deps;
    this.unsubscribe.push(
      fleet.on('statsSampled', () => {
        this.changes++;
        this.live.publish();
      }),
      fleet.on('containersChanged', () => {
        this.changes++;
        this.live.publishSoon();
      }),
      hosts.on('hostAdded', ({ host }) => {
        this.publishAdded(host.id).catch(() => undefined); // removed meanwhile: nothing to say
      }),
      hosts.on('hostRemoved', ({ host }) => {
        hub.publish({ type: 'host_removed', data: { host_id: host.id } });
      }),
    );
  }

  stop(): void {
    for (const off of this.unsubscribe.splice(0)) off();
    this.live.stop();
  }

  /** Every container of every reachable host (or of one host). */
  listContainers(hostId?: string): Container[] {
    const { fleet, containerSettings } = this.deps;
    const defaultAutoRestart = this.deps.settings.get().default_auto_restart;
    return fleet
      .containers(hostId)
      .map((c) =>
        toContainer(
          c,
          fleet.containerStats(c.hostId, c.id),
          containerSettings.get(c.hostId, c.name),
          defaultAutoRestart,
        ),
      );
  }

  /** One container by host and short or full id. */
  container(hostId: string, containerId: string): Container | undefined {
    const { fleet } = this.deps;
    const c = fleet.container(hostId, containerId);
    if (c === undefined) return undefined;
    const settings = this.deps.containerSettings.get(hostId, c.name);
    const defaultAutoRestart = this.deps.settings.get().default_auto_restart;
    return toContainer(c, fleet.containerStats(hostId, c.id), settings, defaultAutoRestart);
  }

  /**
   * The full container list as JSON text. Every browser polls it, and writing a thousand
   * containers is most of a request's cost (bench/containers), so one text is shared until
   * something changes or a second has passed (uptime texts age).
   */
  containersJson(hostId?: string): string {
    if (hostId !== undefined) return JSON.stringify(this.listContainers(hostId));
    const key = `${this.changes}:${this.deps.settings.get().default_auto_restart}`;
    const now = Date.now();
    const cached = this.listCache;
    if (cached !== null && cached.key === key && now - cached.at < LIST_CACHE_MS)
      return cached.json;
    const json = JSON.stringify(this.listContainers());
    this.listCache = { key, at: now, json };
    return json;
  }

  /** Auto-update settings of every listed container, by composite key. */
  autoUpdateConfigs(): AutoUpdateConfigs {
    return Object.fromEntries(
      this.listContainers().map((c) => [
        containerKey(c.host_id, c.id),
        { auto_update_enabled: c.auto_update_enabled, floating_tag_mode: c.floating_tag_mode },
      ]),
    );
  }

  /** Container tags (user and derived) containing q, most used first. */
  suggestTags(q: string, limit: number): string[] {
    return suggestTags(
      this.listContainers().map((c) => c.tags),
      q,
      limit,
    );
  }

  /** The full containers_update for one client, in the form it asked for and its scope. */
  containersFull(
    client: Pick<LiveClient, 'protocol' | 'containerSparklines' | 'scope'>,
  ): LiveMessageOf<'containers_update'> | SpecLiveMessage {
    return this.live.full(client);
  }

  /** Hosts as the API shows them: stored, live and counted. */
  async hosts(rows: HostRow[]): Promise<Host[]> {
    const [alerts, updates, agents] = await Promise.all([
      this.deps.counts.alertsByHost(),
      this.deps.counts.updatesByHost(),
      this.deps.counts.agentsByHost(),
    ]);
    const countsOf = (id: string): HostCounts => ({
      alerts: alerts.get(id) ?? NO_HOST_COUNTS.alerts,
      updates_available: updates.get(id) ?? 0,
    });
    return rows.map((row) =>
      toHost(row, this.deps.fleet.runtimeOf(row.id), countsOf(row.id), agents.get(row.id) ?? null),
    );
  }

  private async publishAdded(hostId: string): Promise<void> {
    const [host] = await this.hosts([await this.deps.hosts.get(hostId)]);
    if (host !== undefined) this.deps.hub.publish({ type: 'host_added', data: { host } });
  }
}
