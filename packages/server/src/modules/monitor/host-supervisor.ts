import type { HostStatus } from '@berth/contracts';
import {
  describeEngineError,
  EngineError,
  NOT_DOCKER,
  openEngine,
  type Engine,
  type EngineEvent,
  type EngineEventStream,
} from '../../docker/index.js';
import { HostStatsCollector } from '../stats/index.js';
import { fromInspect } from './engine-container.js';
import { ContainerPicture } from './container-picture.js';
import { ContainerSync } from './container-sync.js';
import type { ContainerSnapshot, EnginePurpose, FleetHost } from './fleet.js';
import { FOLLOWED_ACTIONS } from './engine-events.js';
import type { SupervisedHost, SupervisorContext } from './supervisor-context.js';
import { withTimeout } from './supervisor-helpers.js';
import {
  localDaemonStart,
  uptimeFromContainers,
  uptimeFromProcess,
  type EngineUptime,
} from './engine-uptime.js';

const HEARTBEAT_MS = 3000;
const MAX_BACKOFF_MS = 10_000;
/** Longest stop timeout a stop or restart is waited for, beyond the connection timeout. */
const MAX_STOP_WAIT_MS = 5 * 60_000;
const EVENT_FILTERS = { type: ['container'], event: FOLLOWED_ACTIONS };

/**
 * Keeps an exact, live picture of one engine: connects, follows the event stream (replaying
 * what it missed after a cut with `since`), has the picture listed and kept up to date
 * (container-sync.ts), checks liveness, reconnects with backoff, and samples stats when asked.
 */
export class HostSupervisor {
  status: HostStatus = 'offline';
  error: string | null = 'Connecting...';
  lastChecked: string | null = null;
  numCpus = 1;
  totalMemory = 16 * 1024 ** 3;
  readonly stats: HostStatsCollector;
  /** The live picture of the engine's containers. */
  readonly containers: ContainerPicture;

  private queryEngine: Engine | null = null;
  private actionEngine: Engine | null = null;
  private stream: EngineEventStream | null = null;
  private generation = 0;
  private attempts = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private missedPings = 0;
  private readonly sync: ContainerSync;
  /** The engine process's start, read at each connect when the engine runs on this machine. */
  private processUptime: EngineUptime | null = null;

  constructor(
    private host: SupervisedHost,
    private readonly ctx: SupervisorContext,
  ) {
    this.stats = new HostStatsCollector(
      ctx.statsSource,
      () => this.totalMemory,
      () => ctx.agentStats?.(this.host.id) ?? null,
    );
    this.containers = new ContainerPicture(() => this.host);
    this.sync = new ContainerSync(
      () => this.host,
      this.containers,
      this.stats,
      ctx,
      () => this.queryEngine,
    );
  }

  get id(): string {
    return this.host.id;
  }

  get name(): string {
    return this.host.name;
  }

  /** Who this host is and how it is doing, for readers outside the monitor. */
  view(): FleetHost {
    return { id: this.id, name: this.name, status: this.status, error: this.error };
  }

  /** When the engine started, from the best source there is (docs: engine-uptime.ts). */
  uptime(): EngineUptime {
    if (this.status === 'offline')
      return { started_at: null, source: null, note: 'The engine does not answer' };
    return this.processUptime ?? uptimeFromContainers(this.containers.values());
  }

  engine(purpose: EnginePurpose): Engine | null {
    return purpose === 'action' ? this.actionClient : this.client;
  }

  /** The engine while online; null otherwise. */
  get client(): Engine | null {
    return this.status === 'offline' ? null : this.queryEngine;
  }

  /**
   * An engine for calls the engine may hold for a container's whole stop timeout (stop,
   * restart): the usual connection timeout would cut them off and report a failure for an
   * action that is still going on.
   */
  get actionClient(): Engine | null {
    if (this.client === null) return null;
    this.actionEngine ??= openEngine(this.host.endpoint, {
      timeoutMs: this.ctx.timeoutMs() + MAX_STOP_WAIT_MS,
      connectTimeoutMs: this.ctx.timeoutMs(),
    });
    return this.actionEngine;
  }

  start(): void {
    this.connect().catch((err: unknown) => this.ctx.log.error({ err }, 'engine connect crashed'));
  }

  /** Stops watching; `save: false` for a host being removed (nothing of it is kept). */
  stop({ save = true } = {}): void {
    this.generation++;
    this.teardown();
    clearTimeout(this.retryTimer);
    if (!save) return;
    this.sync
      .flushEventTime()
      .catch((err: unknown) =>
        this.ctx.log.warn({ err, host: this.host.name }, 'saving the last event time failed'),
      );
  }

  /** The way to the engine is back (its agent connected): try now, not at the next backoff. */
  retryNow(): void {
    if (this.status !== 'offline') return;
    this.attempts = 0;
    this.start();
  }

  /** Name, URL or certificates changed: reconnect with the new endpoint. */
  update(host: SupervisedHost): void {
    const reconnect = JSON.stringify(host.endpoint) !== JSON.stringify(this.host.endpoint);
    this.host = { ...host, lastEventAt: this.host.lastEventAt };
    if (reconnect) {
      this.stop();
      this.sync.reset();
      this.start();
    }
  }

  /** One stats pass over the running containers; a partial failure marks the host degraded. */
  async collectStats(): Promise<void> {
    const engine = this.client;
    if (engine === null) return;
    const running = [...this.containers.values()].filter((c) => c.state === 'running');
    const { failed } = await this.stats.collect(
      engine,
      running.map((c) => ({ id: c.id, fullId: c.fullId, pid: c.pid })),
    );
    if (this.status === 'offline') return;
    if (failed > 0)
      this.setStatus('degraded', `Stats unavailable for ${failed} of ${running.length} containers`);
    else if (this.status === 'degraded') this.setStatus('online', null);
  }

  /** Re-reads one container after an action, so the answer and the push carry its new state. */
  async refreshContainer(id: string): Promise<ContainerSnapshot | null> {
    const engine = this.client;
    if (engine === null) return null;
    try {
      const c = this.containers.set(fromInspect(await engine.inspectContainer(id)));
      return this.containers.snapshotOf(c);
    } catch {
      this.containers.delete(id);
      return null;
    }
  }

  private async connect(): Promise<void> {
    const gen = ++this.generation;
    clearTimeout(this.retryTimer);
    try {
      const engine = openEngine(this.host.endpoint, { timeoutMs: this.ctx.timeoutMs() });
      const [info, version] = await Promise.all([engine.info(), engine.version()]);
      if (gen !== this.generation) return;
      // Another HTTP server answers 200 with a body that is not the Docker API's.
      if (typeof version.Version !== 'string') {
        throw new EngineError(NOT_DOCKER);
      }
      const dockerVersion = version.Version;
      this.queryEngine = engine;
      this.actionEngine = null;
      this.numCpus = info.NCPU ?? 1;
      this.totalMemory = info.MemTotal ?? this.totalMemory;
      this.lastChecked = new Date().toISOString();
      const engineNow = Date.parse(info.SystemTime ?? '') / 1000 || Date.now() / 1000;
      // The Engine API does not tell when the daemon started; the kernel does when it is here.
      const local = await localDaemonStart(this.host.endpoint.url);
      if (gen !== this.generation) return;
      this.processUptime = local === null ? null : uptimeFromProcess(local);
      await this.ctx.saveFacts(this.host.id, {
        os_version: `${info.OperatingSystem ?? 'unknown'} (${info.KernelVersion ?? 'unknown'})`,
        docker_version: dockerVersion,
        num_cpus: this.numCpus,
        total_memory: this.totalMemory,
        daemon_started_at: this.processUptime?.started_at ?? null,
        last_checked: this.lastChecked,
      });
      const gapFrom = this.host.lastEventAt;
      // A host's log starts when Berth first reaches it: the engine replays `since` by whole
      // seconds, and the earlier part of that second belongs to no one watching.
      this.host.lastEventAt ??= engineNow;
      this.sync.streamOpening();
      if (gapFrom === null) {
        await this.followEvents(gen, engine, engineNow);
        await this.sync.resync(() => gen === this.generation, engine);
      } else {
        await this.catchUp(gen, engine, gapFrom);
      }
      if (gen !== this.generation) return;
      this.attempts = 0;
      this.setStatus('online', null);
      this.startHeartbeat(gen, engine);
    } catch (err) {
      this.fail(gen, err);
    }
  }

  /**
   * After a gap (a cut, Berth's restart): the list and the gap's events up to the engine's
   * clock after it (container-sync.ts says why in that order), then the live stream.
   */
  private async catchUp(gen: number, engine: Engine, gapFrom: number) {
    await this.sync.catchUp(
      () => gen === this.generation,
      engine,
      gapFrom,
      (until) => this.replay(engine, gapFrom, until),
    );
    if (gen !== this.generation) return;
    // From the newest event applied, not the replay's end: an event stamped before that end
    // but published after the replay was read comes now; what was applied is dropped again
    // (streamOpening, whole seconds), so the second of the boundary is applied once.
    this.sync.streamOpening();
    await this.followEvents(gen, engine, this.host.lastEventAt ?? gapFrom);
  }

  /**
   * The engine's events from `since` to `until` (the engine keeps a bounded history), waited
   * for within the engine call timeout (a failure or a timeout fails the connect).
   */
  private async replay(engine: Engine, since: number, until: number): Promise<EngineEvent[]> {
    const opened = { stream: null as EngineEventStream | null, over: false };
    const events: EngineEvent[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      engine
        .events(
          { since, until, filters: EVENT_FILTERS },
          {
            onEvent: (ev) => events.push(ev),
            onDroppedLine: this.droppedLine,
            onError: reject,
            onEnd: resolve,
          },
        )
        .then((stream) => {
          if (opened.over) stream.close();
          else opened.stream = stream;
        }, reject);
    });
    try {
      await withTimeout(ended, this.ctx.timeoutMs());
    } finally {
      opened.over = true;
      opened.stream?.close();
    }
    return events;
  }

  private readonly droppedLine = (dropped: number) =>
    this.ctx.log.warn({ host: this.host.name, dropped }, 'oversized engine event dropped');

  /**
   * Opens the event stream; `since` replays what happened while we were away. An engine
   * that never sends the headers fails within the connection timeout; once open, the
   * stream may stay quiet for as long as nothing happens.
   */
  private async followEvents(gen: number, engine: Engine, since: number): Promise<void> {
    const stream = await engine.events(
      { since, filters: EVENT_FILTERS },
      {
        onEvent: (ev) => this.sync.event(() => gen === this.generation, ev),
        onDroppedLine: this.droppedLine,
        onError: (err) => this.fail(gen, err),
        onEnd: () => this.fail(gen, new EngineError('Event stream closed by the engine')),
      },
    );
    if (gen !== this.generation) {
      stream.close();
      return;
    }
    this.stream = stream;
  }

  /** A ping every 3 s; two misses in a row mean the engine is gone (offline within 10 s). */
  private startHeartbeat(gen: number, engine: Engine): void {
    this.missedPings = 0;
    const beat = async () => {
      try {
        await withTimeout(engine.ping(), Math.min(2500, this.ctx.timeoutMs()));
        this.missedPings = 0;
        this.lastChecked = new Date().toISOString();
      } catch (err) {
        if (++this.missedPings >= 2) {
          this.fail(gen, err);
          return;
        }
      }
      if (gen === this.generation) this.heartbeatTimer = setTimeout(next, HEARTBEAT_MS);
    };
    // beat() catches its own failures; this only keeps a surprise off the process.
    const next = () => {
      beat().catch((err: unknown) =>
        this.ctx.log.error({ err, host: this.host.name }, 'heartbeat'),
      );
    };
    this.heartbeatTimer = setTimeout(next, HEARTBEAT_MS);
  }

  private fail(gen: number, err: unknown): void {
    if (gen !== this.generation) return;
    this.generation++;
    this.teardown();
    const reason = describeEngineError(err, this.host.endpoint.url);
    const wasUp = this.status !== 'offline';
    this.setStatus('offline', reason);
    if (wasUp) {
      this.ctx
        .record({
          severity: 'error',
          category: 'host',
          event_type: 'disconnection',
          title: `Host ${this.host.name} disconnected`,
          message: reason,
          host_id: this.host.id,
          host_name: this.host.name,
          triggered_by: 'system',
        })
        .catch((err: unknown) => this.ctx.log.warn({ err }, 'could not record a disconnection'));
    }
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.attempts++);
    // connect() reports its own failures through fail(); the catch is for the unexpected.
    this.retryTimer = setTimeout(() => {
      this.connect().catch((e: unknown) => this.ctx.log.error({ err: e }, 'reconnect'));
    }, delay);
  }

  private teardown(): void {
    clearTimeout(this.heartbeatTimer);
    this.stream?.close();
    this.stream = null;
  }

  private setStatus(status: HostStatus, error: string | null): void {
    const changed = status !== this.status || error !== this.error;
    const cameOnline = this.status === 'offline' && status !== 'offline';
    this.status = status;
    this.error = error;
    if (!changed) return;
    this.ctx.statusChanged(this.host.id, status, error);
    if (cameOnline) {
      this.recordLater({
        severity: 'info',
        category: 'host',
        event_type: 'connection',
        title: `Host ${this.host.name} connected`,
        host_id: this.host.id,
        host_name: this.host.name,
        triggered_by: 'system',
      });
    }
  }

  /** Records an event without waiting; a failed write is logged, never left unhandled. */
  private recordLater(event: Parameters<SupervisorContext['record']>[0]): void {
    this.ctx
      .record(event)
      .catch((err: unknown) =>
        this.ctx.log.warn({ err, host: this.host.name }, 'could not record an event'),
      );
  }
}
