import type { HostStatus } from '@berth/contracts';
import type Docker from 'dockerode';
import {
  createEngineClient,
  describeEngineError,
  EngineError,
  NOT_DOCKER,
  openEngineEvents,
  type EngineEventStream,
} from '../../docker/index.js';
import { HostStatsCollector } from '../stats/index.js';
import { fromInspect, type EngineContainer } from './engine-container.js';
import { ContainerPicture } from './container-picture.js';
import { driftRecords, engineEventRecord } from './container-records.js';
import type { ContainerSnapshot, EnginePurpose, FleetHost } from './fleet.js';
import { describeEngineEvent, FOLLOWED_ACTIONS, type EngineEvent } from './engine-events.js';
import type { SupervisedHost, SupervisorContext } from './supervisor-context.js';
import { withTimeout } from './supervisor-helpers.js';
import {
  localDaemonStart,
  uptimeFromContainers,
  uptimeFromProcess,
  type EngineUptime,
} from './engine-uptime.js';

/** The fields of the engine's /info answer that Berth reads. */
interface EngineInfo {
  NCPU?: number;
  MemTotal?: number;
  SystemTime?: string;
  OperatingSystem?: string;
  KernelVersion?: string;
}

const HEARTBEAT_MS = 3000;
const MAX_BACKOFF_MS = 10_000;
const INSPECT_CONCURRENCY = 8;
/** Longest stop timeout a stop or restart is waited for, beyond the connection timeout. */
const MAX_STOP_WAIT_MS = 5 * 60_000;

/**
 * Keeps an exact, live picture of one engine: connects, lists and inspects containers,
 * follows the event stream (replaying what it missed after a cut with `since`), checks
 * liveness, reconnects with backoff, and samples stats when asked.
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

  private docker: Docker | null = null;
  private actionDocker: Docker | null = null;
  private stream: EngineEventStream | null = null;
  private generation = 0;
  private attempts = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private missedPings = 0;
  private queue: Promise<void> = Promise.resolve();
  private synced = false;
  private lastSavedEventAt = 0;
  /** The engine process's start, read at each connect when the engine runs on this machine. */
  private processUptime: EngineUptime | null = null;

  constructor(
    private host: SupervisedHost,
    private readonly ctx: SupervisorContext,
  ) {
    this.stats = new HostStatsCollector(ctx.statsSource, () => this.totalMemory);
    this.containers = new ContainerPicture(() => this.host);
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

  engine(purpose: EnginePurpose): Docker | null {
    return purpose === 'action' ? this.actionClient : this.client;
  }

  /** The engine client while online; null otherwise. */
  get client(): Docker | null {
    return this.status === 'offline' ? null : this.docker;
  }

  /**
   * A client for calls the engine may hold for a container's whole stop timeout (stop,
   * restart): the usual connection timeout would cut them off and report a failure for an
   * action that is still going on.
   */
  get actionClient(): Docker | null {
    if (this.client === null) return null;
    this.actionDocker ??= createEngineClient(this.host.endpoint, {
      timeoutMs: this.ctx.timeoutMs() + MAX_STOP_WAIT_MS,
      connectTimeoutMs: this.ctx.timeoutMs(),
    });
    return this.actionDocker;
  }

  start(): void {
    this.connect().catch((err: unknown) => this.ctx.log.error({ err }, 'engine connect crashed'));
  }

  stop(): void {
    this.generation++;
    this.teardown();
    clearTimeout(this.retryTimer);
  }

  /** Name, URL or certificates changed: reconnect with the new endpoint. */
  update(host: SupervisedHost): void {
    const reconnect = JSON.stringify(host.endpoint) !== JSON.stringify(this.host.endpoint);
    this.host = { ...host, lastEventAt: this.host.lastEventAt };
    if (reconnect) {
      this.stop();
      this.containers.clear();
      this.synced = false;
      this.start();
    }
  }

  /** One stats pass over the running containers; a partial failure marks the host degraded. */
  async collectStats(): Promise<void> {
    const docker = this.client;
    if (docker === null) return;
    const running = [...this.containers.values()].filter((c) => c.state === 'running');
    const { failed } = await this.stats.collect(
      docker,
      running.map((c) => ({ id: c.id, fullId: c.fullId, pid: c.pid })),
    );
    if (this.status === 'offline') return;
    if (failed > 0)
      this.setStatus('degraded', `Stats unavailable for ${failed} of ${running.length} containers`);
    else if (this.status === 'degraded') this.setStatus('online', null);
  }

  /** Re-reads one container after an action, so the answer and the push carry its new state. */
  async refreshContainer(id: string): Promise<ContainerSnapshot | null> {
    const docker = this.client;
    if (docker === null) return null;
    try {
      const c = this.containers.set(fromInspect(await docker.getContainer(id).inspect()));
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
      const docker = createEngineClient(this.host.endpoint, { timeoutMs: this.ctx.timeoutMs() });
      const [info, version] = await Promise.all([
        docker.info() as Promise<EngineInfo>,
        docker.version(),
      ]);
      if (gen !== this.generation) return;
      // Another HTTP server answers 200 with a body that is not the Docker API's.
      if (typeof (version as { Version?: unknown }).Version !== 'string') {
        throw new EngineError(NOT_DOCKER);
      }
      this.docker = docker;
      this.actionDocker = null;
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
        docker_version: version.Version,
        num_cpus: this.numCpus,
        total_memory: this.totalMemory,
        daemon_started_at: this.processUptime?.started_at ?? null,
        last_checked: this.lastChecked,
      });
      await this.followEvents(gen, this.host.lastEventAt ?? engineNow);
      await this.resync(gen, docker);
      if (gen !== this.generation) return;
      this.attempts = 0;
      this.setStatus('online', null);
      this.startHeartbeat(gen, docker);
    } catch (err) {
      this.fail(gen, err);
    }
  }

  /**
   * Opens the event stream; `since` replays what happened while we were away. An engine
   * that never sends the headers fails within the connection timeout; once open, the
   * stream may stay quiet for as long as nothing happens.
   */
  private async followEvents(gen: number, since: number): Promise<void> {
    const timeoutMs = this.ctx.timeoutMs();
    const stream = await openEngineEvents(
      this.host.endpoint,
      { since, filters: { type: ['container'], event: FOLLOWED_ACTIONS } },
      { connectTimeoutMs: timeoutMs, firstByteTimeoutMs: timeoutMs },
      {
        onEvent: (ev) => this.enqueue(gen, ev),
        onError: (err) => this.fail(gen, err),
        onEnd: () => this.fail(gen, new EngineError('Event stream closed by the engine')),
        onDroppedLine: (dropped) =>
          this.ctx.log.warn({ host: this.host.name, dropped }, 'oversized engine event dropped'),
      },
    );
    if (gen !== this.generation) {
      stream.close();
      return;
    }
    this.stream = stream;
  }

  private enqueue(gen: number, ev: EngineEvent): void {
    this.queue = this.queue
      .then(() => (gen === this.generation ? this.handleEvent(ev) : undefined))
      .catch((err: unknown) =>
        this.ctx.log.warn({ err, host: this.host.name }, 'engine event failed'),
      );
  }

  private async handleEvent(ev: EngineEvent): Promise<void> {
    const at = ev.timeNano / 1e9;
    if (this.host.lastEventAt !== null && at <= this.host.lastEventAt) return; // already seen
    this.host.lastEventAt = at;
    const id = ev.Actor.ID.slice(0, 12);
    const old = this.containers.get(id);
    const name = (ev.Actor.Attributes.name ?? old?.name ?? id).replace(/^\//, '');
    const meaning = describeEngineEvent(ev, name);
    if (meaning === null) return;
    if (ev.Action === 'destroy') {
      this.containers.delete(id);
      this.stats.forget(id);
    } else {
      const fresh = await this.inspect(ev.Actor.ID);
      const base = fresh ?? old;
      if (base !== undefined) {
        // Only events that decide a state change it: inspect may already see a later one.
        const next = { ...base, state: meaning.newState ?? old?.state ?? base.state };
        if (ev.Action === 'die')
          next.exitCode = Number(ev.Actor.Attributes.exitCode ?? next.exitCode ?? 0);
        this.containers.set(next);
      }
    }
    const newState = ev.Action === 'destroy' ? 'removed' : (this.containers.get(id)?.state ?? null);
    await this.ctx.record(
      engineEventRecord(this.host, ev, meaning, {
        id,
        name,
        oldState: old?.state ?? null,
        newState,
      }),
    );
    this.ctx.containersChanged(this.host.id);
    const after = this.containers.get(id);
    this.ctx.containerEvent({
      hostId: this.host.id,
      action: ev.Action,
      containerId: id,
      name,
      container: after === undefined ? null : this.containers.snapshotOf(after),
    });
    if (at - this.lastSavedEventAt >= 1) {
      this.lastSavedEventAt = at;
      await this.ctx.saveFacts(this.host.id, { last_event_at: at });
    }
  }

  /** Lists and inspects every container; after a reconnect, differences become events. */
  private async resync(gen: number, docker: Docker): Promise<void> {
    const listed = await docker.listContainers({ all: true });
    const fresh = new Map<string, Readonly<EngineContainer>>();
    const queue = listed.map((c) => c.Id);
    const worker = async () => {
      for (let full = queue.shift(); full !== undefined; full = queue.shift()) {
        const c = await this.inspect(full);
        if (c !== null) fresh.set(c.id, Object.freeze(c));
      }
    };
    await Promise.all(Array.from({ length: INSPECT_CONCURRENCY }, worker));
    if (gen !== this.generation) return;
    if (this.synced) {
      for (const record of driftRecords(this.host, this.containers.entries(), fresh))
        await this.ctx.record(record);
    }
    this.containers.clear();
    for (const c of fresh.values()) this.containers.set(c);
    this.synced = true;
    this.ctx.containersChanged(this.host.id);
  }

  private async inspect(fullId: string): Promise<EngineContainer | null> {
    try {
      return fromInspect(
        await (this.docker ?? createEngineClient(this.host.endpoint))
          .getContainer(fullId)
          .inspect(),
      );
    } catch {
      return null; // removed in the meantime
    }
  }

  /** A ping every 3 s; two misses in a row mean the engine is gone (offline within 10 s). */
  private startHeartbeat(gen: number, docker: Docker): void {
    this.missedPings = 0;
    const beat = async () => {
      try {
        await withTimeout(docker.ping(), Math.min(2500, this.ctx.timeoutMs()));
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
