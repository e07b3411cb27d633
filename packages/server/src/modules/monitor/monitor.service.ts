import type { HostStats, Sparklines } from '@berth/contracts';
import type { Engine } from '../../docker/index.js';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveHub } from '../../platform/live-hub.js';
import type { EventsService } from '../events/index.js';
import type { EngineTarget, HostsService } from '../hosts/index.js';
import type { SettingsService } from '../settings/index.js';
import type { ContainerStatesStore } from './container-states.store.js';
import type {
  ContainerStats,
  RemoteFileSamples,
  StatsOrigin,
  StatsSource,
} from '../stats/index.js';
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
  HostRuntime,
} from './fleet.js';
import { FleetEmitter } from './fleet-emitter.js';
import { HostSupervisor } from './host-supervisor.js';
import { HostSparklines, hostStatsOf } from './host-aggregates.js';
import { spreadPasses, statsPassStep } from './stats-pass.js';

export interface MonitorDeps {
  log: FastifyBaseLogger;
  hub: LiveHub;
  events: EventsService;
  settings: SettingsService;
  /** Where hosts come from: read at start, then followed through its events. */
  hosts: Pick<HostsService, 'engineTargets' | 'saveEngineFacts' | 'on'>;
  statsSource: StatsSource;
  /** Each host's containers as last seen: where replayed events start after a restart. */
  containerStates: ContainerStatesStore;
  /**
   * The disk of a host whose agent reads it next to the engine (decision 023); null when
   * the host has no such agent, and Berth measures what it can itself.
   */
  agentDisk?: (hostUrl: string) => Promise<EngineDisk> | null;
  /** The reader of a host's container files on its agent; null: Berth reads or asks the API. */
  agentStats?: (hostUrl: string) => RemoteFileSamples | null;
}

/** Without a browser watching, stats are sampled this often at most (states stay exact). */
const IDLE_TICK_MS = 10_000;

/**
 * Exactly one supervisor per registered host (following the hosts module's events), and a
 * stats tick at `polling_interval`, faster while someone watches. Other modules see it only
 * as a `Fleet`: engine facts, snapshots and events; how the API shows them is
 * container-view's.
 */
export class MonitorService implements Fleet {
  private readonly supervisors = new Map<string, HostSupervisor>();
  private readonly hostSparklineSets = new HostSparklines();
  private readonly emitter: FleetEmitter;
  private tickTimer: NodeJS.Timeout | undefined;
  private running = false;
  /** A tick is under way (its pass spreads over part of the interval: stats-pass.ts). */
  private ticking = false;
  /** Owners that need stats at the polling interval without a browser (alert rules). */
  private readonly statsDemand = new Set<string>();
  /** Engine URLs by host, to tell a local engine (whose disk can be read) from others. */
  private readonly urls = new Map<string, string>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly deps: MonitorDeps) {
    this.emitter = new FleetEmitter((err) => deps.log.error({ err }, 'fleet listener failed'));
  }

  async start(): Promise<void> {
    this.running = true;
    const { hosts } = this.deps;
    this.unsubscribe.push(
      hosts.on('hostAdded', ({ target }) => this.hostAdded(target)),
      hosts.on('hostChanged', ({ target }) => this.hostChanged(target)),
      hosts.on('hostRemoved', ({ host }) => this.hostRemoved(host.id)),
    );
    for (const target of await hosts.engineTargets()) this.hostAdded(target);
    this.scheduleTick(0);
    this.deps.hub.onConnectionCountChange((count) => {
      if (count === 1) this.tickNow(); // a browser arrived: full cadence now
    });
  }

  stop(): void {
    this.running = false;
    for (const off of this.unsubscribe.splice(0)) off();
    clearTimeout(this.tickTimer);
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
  statsSourceOf(hostId: string, containerId: string): StatsOrigin | undefined {
    return this.supervisors.get(hostId)?.stats.sourceOf(containerId);
  }

  on<E extends FleetEvent>(event: E, listener: FleetListener<E>): () => void {
    return this.emitter.on(event, listener);
  }

  changed(): void {
    this.emitter.emit('containersChanged', {});
  }

  containerStats(hostId: string, containerId: string): ContainerStats | undefined {
    return this.supervisors.get(hostId)?.stats.statsOf(containerId);
  }

  hostStats(hostId: string): HostStats | null {
    const sup = this.supervisors.get(hostId);
    return sup === undefined || sup.status === 'offline' ? null : hostStatsOf(sup);
  }

  hostSparklines(hostId: string): Sparklines | null {
    return this.hostSparklineSets.of(hostId);
  }

  containerSparklines(hostId: string): [string, Sparklines][] {
    const sup = this.supervisors.get(hostId);
    if (sup === undefined) return [];
    return [...sup.stats.sparklines].map(([id, set]) => [id, set.toJSON()]);
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
    const url = this.urls.get(hostId) ?? '';
    return (
      this.deps.agentDisk?.(url) ??
      measureEngineDisk(url, this.engine(hostId, { purpose: 'query' }))
    );
  }

  /** The engine URL of a supervised host (`agent://<id>` for an agent host). */
  urlOf(hostId: string): string | undefined {
    return this.urls.get(hostId);
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
      sparklines: this.hostSparklineSets.of(hostId),
    };
  }

  /** Starts supervising; a host that is already supervised is updated instead, never doubled. */
  private hostAdded(target: EngineTarget): void {
    this.urls.set(target.id, target.endpoint.url);
    const existing = this.supervisors.get(target.id);
    if (existing !== undefined) {
      existing.update(target);
      return;
    }
    const sup = new HostSupervisor(target, {
      log: this.deps.log,
      statsSource: this.deps.statsSource,
      agentStats: (id) => this.deps.agentStats?.(this.urls.get(id) ?? '') ?? null,
      timeoutMs: () => this.deps.settings.get().connection_timeout * 1000,
      record: (event) => this.deps.events.record(event),
      containerStates: this.deps.containerStates,
      saveFacts: (id, facts) => this.deps.hosts.saveEngineFacts(id, facts),
      containersChanged: () => this.changed(),
      containerEvent: (event) => this.emitter.emit('containerChanged', event),
      statusChanged: (hostId, status, error) => {
        this.deps.hub.publish({
          type: 'host_status_changed',
          data: { host_id: hostId, status, error },
        });
        this.emitter.emit('hostStatusChanged', { hostId, status, error });
        this.changed();
      },
    });
    this.supervisors.set(target.id, sup);
    sup.start();
  }

  /** A host's way to its engine came back (its agent connected): connect now. */
  retryNow(hostId: string): void {
    this.supervisors.get(hostId)?.retryNow();
  }

  private hostChanged(target: EngineTarget): void {
    this.urls.set(target.id, target.endpoint.url);
    this.supervisors.get(target.id)?.update(target);
    this.changed();
  }

  private hostRemoved(hostId: string): void {
    // Its rows went with it; a last save would only fail on the missing host.
    this.supervisors.get(hostId)?.stop({ save: false });
    this.supervisors.delete(hostId);
    this.urls.delete(hostId);
    this.hostSparklineSets.forget(hostId);
    this.changed();
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
          if (sup.status !== 'offline') this.hostSparklineSets.push(sup.id, hostStatsOf(sup));
        } catch (err) {
          this.deps.log.warn({ err, host: sup.name }, 'stats pass failed');
        }
      },
    );
    this.emitter.emit('statsSampled', { at: new Date().toISOString() });
  }

  /** Supervisors of hosts that answer (all of them, or the one asked for). */
  private reachable(hostId?: string): HostSupervisor[] {
    return [...this.supervisors.values()].filter(
      (sup) => sup.status !== 'offline' && (hostId === undefined || sup.id === hostId),
    );
  }
}
