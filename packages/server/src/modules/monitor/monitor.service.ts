import {
  containerKey,
  encodeContainersUpdate,
  withoutContainerSparklines,
  type Container,
  type LiveContainersState,
  type LiveMessageOf,
  type SpecLiveMessage,
} from '@berth/contracts';
import type { Engine } from '../../docker/index.js';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveClient, LiveHub } from '../../platform/live-hub.js';
import type { ContainerSettings } from '../container-settings/index.js';
import type { EventsService } from '../events/index.js';
import type { EngineTarget, HostRuntime, HostRuntimeSource, HostsService } from '../hosts/index.js';
import type { SettingsService } from '../settings/index.js';
import type { StatsSource } from '../stats/index.js';
import { measureEngineDisk } from './engine-disk.js';
import type {
  ContainerSnapshot,
  EngineDisk,
  EnginePurpose,
  Fleet,
  FleetEvent,
  FleetHost,
  FleetHostMetrics,
  FleetListener,
} from './fleet.js';
import { FleetEmitter } from './fleet-emitter.js';
import { HostSupervisor } from './host-supervisor.js';
import {
  HostSparklines,
  hostStatsOf,
  liveForm,
  specContainersUpdate,
  toContainer,
} from './live-snapshot.js';
import { spreadPasses, statsPassStep } from './stats-pass.js';

export interface MonitorDeps {
  log: FastifyBaseLogger;
  hub: LiveHub;
  events: EventsService;
  settings: SettingsService;
  hosts: HostsService;
  containerSettings: ContainerSettings;
  statsSource: StatsSource;
}

/** Without a browser watching, stats are sampled this often at most (states stay exact). */
const IDLE_TICK_MS = 10_000;
/** State changes are pushed after this quiet period, so a burst becomes one message. */
const PUSH_DEBOUNCE_MS = 25;
/** How long one written container list may be handed out while nothing changes. */
const LIST_CACHE_MS = 1000;

/**
 * Exactly one supervisor per registered host, a stats tick at `polling_interval`, and the
 * live `containers_update` (on every tick, and right after any state change). Other modules
 * see it only as a `Fleet`.
 */
export class MonitorService implements HostRuntimeSource, Fleet {
  private readonly supervisors = new Map<string, HostSupervisor>();
  private readonly hostSparklines = new HostSparklines();
  private readonly emitter: FleetEmitter;
  private tickTimer: NodeJS.Timeout | undefined;
  private pushTimer: NodeJS.Timeout | undefined;
  /** Counts changes to what the container list shows (engine events, actions, stats passes). */
  private changes = 0;
  private listCache: { key: string; at: number; json: string } | null = null;
  private running = false;
  /** A tick is under way (its pass spreads over part of the interval: stats-pass.ts). */
  private ticking = false;
  /** Owners that need stats at the polling interval without a browser (alert rules). */
  private readonly statsDemand = new Set<string>();
  /** Engine URLs by host, to tell a local engine (whose disk can be read) from others. */
  private readonly urls = new Map<string, string>();
  /** The state the last containers_update took every browser to; deltas start from it. */
  private lastLive: LiveContainersState | null = null;

  constructor(private readonly deps: MonitorDeps) {
    this.emitter = new FleetEmitter((err) => deps.log.error({ err }, 'fleet listener failed'));
  }

  async start(): Promise<void> {
    this.running = true;
    for (const target of await this.deps.hosts.engineTargets()) this.hostAdded(target);
    this.scheduleTick(0);
    this.deps.hub.onConnectionCountChange((count) => {
      if (count === 1) this.tickNow(); // a browser arrived: full cadence now
    });
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.tickTimer);
    clearTimeout(this.pushTimer);
    for (const sup of this.supervisors.values()) sup.stop();
  }

  host(hostId: string): FleetHost | undefined {
    return this.supervisors.get(hostId)?.view();
  }

  hosts(): FleetHost[] {
    return [...this.supervisors.values()].map((sup) => sup.view());
  }

  container(hostId: string, containerId: string): ContainerSnapshot | undefined {
    return this.supervisors.get(hostId)?.containers.snapshot(containerId);
  }

  containerByName(hostId: string, name: string): ContainerSnapshot | undefined {
    return this.supervisors.get(hostId)?.containers.snapshotByName(name);
  }

  containers(hostId?: string): ContainerSnapshot[] {
    return this.reachable(hostId).flatMap((sup) => sup.containers.snapshots());
  }

  engine(hostId: string, options: { purpose: EnginePurpose }): Engine | null {
    return this.supervisors.get(hostId)?.engine(options.purpose) ?? null;
  }

  async refresh(hostId: string, containerId: string): Promise<ContainerSnapshot | null> {
    const sup = this.supervisors.get(hostId);
    if (sup === undefined) return null;
    const after = await sup.refreshContainer(
      sup.containers.get(containerId)?.fullId ?? containerId,
    );
    this.changed();
    return after;
  }

  /** Where the container's last stats sample came from (files or the Engine API). */
  statsSourceOf(hostId: string, containerId: string): 'files' | 'api' | undefined {
    return this.supervisors.get(hostId)?.stats.sourceOf(containerId);
  }

  on<E extends FleetEvent>(event: E, listener: FleetListener<E>): () => void {
    return this.emitter.on(event, listener);
  }

  changed(): void {
    this.pushSoon();
  }

  containerInfo(hostId: string, name: string): Container | undefined {
    const sup = this.supervisors.get(hostId);
    const c = sup?.containers.snapshotByName(name);
    if (sup === undefined || c === undefined) return undefined;
    const settings = this.deps.containerSettings.get(hostId, c.name);
    return toContainer(sup, c, settings, this.deps.settings.get().default_auto_restart);
  }

  hostMetrics(hostId: string): FleetHostMetrics | null {
    const sup = this.supervisors.get(hostId);
    if (sup === undefined || sup.status === 'offline') return null;
    const stats = hostStatsOf(sup);
    return {
      cpu_percent: stats.cpu_percent,
      mem_percent: stats.mem_percent,
      total_memory: sup.totalMemory,
    };
  }

  demandStats(owner: string, wanted: boolean): void {
    const before = this.statsDemand.size;
    if (wanted) this.statsDemand.add(owner);
    else this.statsDemand.delete(owner);
    if (before === 0 && this.statsDemand.size > 0) this.tickNow();
  }

  engineDisk(hostId: string): Promise<EngineDisk> {
    return measureEngineDisk(
      this.urls.get(hostId) ?? '',
      this.engine(hostId, { purpose: 'query' }),
    );
  }

  runtimeOf(hostId: string): HostRuntime | null {
    const sup = this.supervisors.get(hostId);
    if (sup === undefined) return null;
    const all = [...sup.containers.values()];
    const running = all.filter((c) => c.state === 'running').length;
    const uptime = sup.uptime();
    return {
      daemon_started_at: uptime.started_at,
      uptime_source: uptime.source,
      uptime_note: uptime.note,
      status: sup.status,
      error: sup.error,
      last_checked: sup.lastChecked,
      container_count: all.length,
      containers: { total: all.length, running, stopped: all.length - running },
      stats: sup.status === 'offline' ? null : hostStatsOf(sup),
      sparklines: this.hostSparklines.of(hostId),
    };
  }

  /** Starts supervising; a host that is already supervised is updated instead, never doubled. */
  hostAdded(target: EngineTarget): void {
    this.urls.set(target.id, target.endpoint.url);
    const existing = this.supervisors.get(target.id);
    if (existing !== undefined) {
      existing.update(target);
      return;
    }
    const sup = new HostSupervisor(target, {
      log: this.deps.log,
      statsSource: this.deps.statsSource,
      timeoutMs: () => this.deps.settings.get().connection_timeout * 1000,
      record: (event) => this.deps.events.record(event),
      saveFacts: (id, facts) => this.deps.hosts.saveEngineFacts(id, facts),
      containersChanged: () => this.pushSoon(),
      containerEvent: (event) => this.emitter.emit('containerChanged', event),
      statusChanged: (hostId, status, error) => {
        this.deps.hub.publish({
          type: 'host_status_changed',
          data: { host_id: hostId, status, error },
        });
        this.emitter.emit('hostStatusChanged', { hostId, status, error });
        this.pushSoon();
      },
    });
    this.supervisors.set(target.id, sup);
    sup.start();
  }

  hostChanged(target: EngineTarget): void {
    this.urls.set(target.id, target.endpoint.url);
    this.changes++;
    this.supervisors.get(target.id)?.update(target);
  }

  hostRemoved(hostId: string): void {
    this.supervisors.get(hostId)?.stop();
    this.supervisors.delete(hostId);
    this.urls.delete(hostId);
    this.hostSparklines.forget(hostId);
    this.deps.containerSettings.forgetHost(hostId);
    this.pushSoon();
  }

  /** Every container of every reachable host (or of one host). */
  listContainers(hostId?: string): Container[] {
    const defaultAutoRestart = this.deps.settings.get().default_auto_restart;
    const out: Container[] = [];
    for (const sup of this.reachable(hostId)) {
      for (const c of sup.containers.values()) {
        out.push(
          toContainer(sup, c, this.deps.containerSettings.get(sup.id, c.name), defaultAutoRestart),
        );
      }
    }
    return out;
  }

  /** What `containers_update` brings a browser to: every container, stats and sparklines. */
  liveState(seq: number): LiveContainersState {
    const host_metrics: Record<string, ReturnType<typeof hostStatsOf>> = {};
    const host_sparklines: Record<string, { cpu: number[]; mem: number[]; net: number[] }> = {};
    const container_sparklines: Record<string, { cpu: number[]; mem: number[]; net: number[] }> =
      {};
    for (const sup of this.supervisors.values()) {
      if (sup.status === 'offline') continue;
      host_metrics[sup.id] = hostStatsOf(sup);
      const spark = this.hostSparklines.of(sup.id);
      if (spark !== null) host_sparklines[sup.id] = spark;
      for (const [id, set] of sup.stats.sparklines)
        container_sparklines[containerKey(sup.id, id)] = set.toJSON();
    }
    return {
      seq,
      containers: this.listContainers(),
      host_metrics,
      host_sparklines,
      container_sparklines,
    };
  }

  /**
   * The full containers_update for one client (just connected, or asking after a gap): the
   * state the last message took everyone else to, so the next delta (the next tick at most a
   * polling interval away, at once for the first browser) applies to it too.
   */
  containersFull(
    client: Pick<LiveClient, 'protocol' | 'containerSparklines'>,
  ): LiveMessageOf<'containers_update'> | SpecLiveMessage {
    this.lastLive ??= this.liveState(1);
    const form = liveForm(client);
    if (form === 'spec') return specContainersUpdate(this.lastLive, new Date().toISOString());
    const full = encodeContainersUpdate(null, this.lastLive);
    return {
      type: 'containers_update',
      data: form === 'deltas' ? full : withoutContainerSparklines(full),
    };
  }

  /**
   * A containers_update to every client in its form (docs/decisions/015): the spec's clients
   * get every container and series whole; Berth's browsers get what changed since the previous
   * message (docs/decisions/010), with container sparklines only if they show them (on a page
   * without, they were about a quarter of a message's bytes and of the browser's time on it).
   */
  private publishContainers(): void {
    const next = this.liveState((this.lastLive?.seq ?? 0) + 1);
    const data = encodeContainersUpdate(this.lastLive, next);
    this.lastLive = next;
    this.deps.hub.publishByForm(liveForm, (form) => {
      if (form === 'spec') return specContainersUpdate(next, data.timestamp);
      return {
        type: 'containers_update',
        data: form === 'deltas' ? data : withoutContainerSparklines(data),
      };
    });
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

  /** Publishes a containers_update shortly (coalescing bursts of engine events). */
  pushSoon(): void {
    this.changes++;
    if (this.pushTimer !== undefined || this.deps.hub.connectionCount === 0) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      this.publishContainers();
    }, PUSH_DEBOUNCE_MS);
  }

  private scheduleTick(delayMs: number): void {
    clearTimeout(this.tickTimer);
    if (!this.running) return;
    this.tickTimer = setTimeout(() => {
      this.tick().catch((err: unknown) => this.deps.log.error({ err }, 'monitor tick crashed'));
    }, delayMs);
  }

  /** Someone started watching: the next tick now, unless one is under way (it schedules the next). */
  private tickNow(): void {
    if (!this.ticking) this.scheduleTick(0);
  }

  private async tick(): Promise<void> {
    const started = Date.now();
    this.ticking = true;
    try {
      await this.collectAndPublish();
    } catch (err) {
      this.deps.log.error({ err }, 'monitor tick failed');
    } finally {
      this.ticking = false;
    }
    const watching = this.deps.hub.connectionCount > 0 || this.statsDemand.size > 0;
    const interval = this.deps.settings.get().polling_interval * 1000;
    const period = watching ? interval : Math.max(interval, IDLE_TICK_MS);
    this.scheduleTick(Math.max(0, period - (Date.now() - started)));
  }

  private async collectAndPublish(): Promise<void> {
    const supervisors = [...this.supervisors.values()];
    const interval = this.deps.settings.get().polling_interval * 1000;
    await spreadPasses(
      supervisors,
      statsPassStep(supervisors.length, interval),
      () => this.running,
      async (sup) => {
        try {
          await sup.collectStats();
          if (sup.status !== 'offline') this.hostSparklines.push(sup.id, hostStatsOf(sup));
        } catch (err) {
          this.deps.log.warn({ err, host: sup.name }, 'stats pass failed');
        }
      },
    );
    this.changes++;
    this.emitter.emit('statsSampled', { at: new Date().toISOString() });
    if (this.deps.hub.connectionCount > 0) this.publishContainers();
  }

  /** Supervisors of hosts that answer (all of them, or the one asked for). */
  private reachable(hostId?: string): HostSupervisor[] {
    return [...this.supervisors.values()].filter(
      (sup) => sup.status !== 'offline' && (hostId === undefined || sup.id === hostId),
    );
  }
}
