import { containerNameKey, type HealthStatus } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveHub } from '../../platform/live-hub.js';
import type { EventsService } from '../events/index.js';
import type { ContainerSnapshot, Fleet } from '../monitor/index.js';
import type { Restarter } from '../restarts/index.js';
import { HealthRestarts, type RestartState } from './check-restarts.js';
import { CheckRunner, type CheckTarget, type ProbeAt } from './check-runner.js';
import { countResult, statusChangeEvent, statusOf, unknownStatus } from './check-status.js';
import type { HealthCheckRow, HealthChecksStore } from './health-checks.store.js';
import type { ProbeResult } from '@berth/agent/http-probe';
import { RestartGuard } from './restart-guard.js';

/**
 * What the alerts module offers health checks: raise (active) or resolve a
 * `health_check_failed` alert of one container. The alert engine's `signal` fits it;
 * services.ts passes it in, so this module never imports the alerts module.
 */
export interface HealthAlertPort {
  signal(s: {
    kind: 'health_check_failed';
    hostId: string;
    containerName: string;
    active: boolean;
    message: string;
  }): Promise<void>;
}

export interface CheckerOptions {
  /** Checks in flight at once; the others wait their turn. */
  concurrency?: number;
  /** How often due checks are started (ms). */
  tickMs?: number;
  /** Status counters are written in one transaction this often (transitions at once). */
  flushMs?: number;
  now?: () => number;
  random?: () => number;
}

export interface CheckerDeps {
  fleet: Fleet;
  /** Performs restarts within the container's safety budget, shared with auto-restart. */
  restarter: Restarter;
  events: EventsService;
  hub: LiveHub;
  store: HealthChecksStore;
  /** Null until an alert engine is wired; transitions then only write events. */
  alerts: HealthAlertPort | null;
  log: FastifyBaseLogger;
  options?: CheckerOptions;
  /** Runs an agent host's probes on its agent; Berth runs every other (and by default all). */
  probeAt?: ProbeAt;
}

interface Entry extends RestartState {
  target: CheckTarget;
  /** When the next run is due (ms, the injected clock); Infinity while disabled. */
  dueAt: number;
  running: boolean;
  dirty: boolean;
  resolvedUrl: string | null;
}

const FIRST_CHECK_AFTER_SAVE_MS = 1000;
/** How often due checks are looked for: a check starts at most this late. */
const TICK_MS = 100;
/** ± this share of the interval, so checks that start together drift apart. */
const JITTER = 0.05;

/**
 * Runs every enabled HTTP health check at its interval from Berth's own process:
 * first runs spread over one interval, each later run jittered, a bounded number in flight
 * (check-runner.ts). Keeps the status in memory (counters written in batches, transitions at
 * once; the policy in check-status.ts), writes an event and a live message on every
 * transition, raises or resolves `health_check_failed`, and has unhealthy containers
 * restarted within their episode cap and the safety window (check-restarts.ts).
 */
export class HealthChecker {
  private readonly entries = new Map<string, Entry>();
  private readonly updating = new Set<string>();
  private readonly runner: CheckRunner;
  private readonly restarts: HealthRestarts;
  private flushTimer: ReturnType<typeof setInterval> | undefined;
  private tickTimer: ReturnType<typeof setInterval> | undefined;
  private unsubscribe: (() => void)[] = [];
  private stopped = false;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly deps: CheckerDeps) {
    this.now = deps.options?.now ?? Date.now;
    this.random = deps.options?.random ?? Math.random;
    this.runner = new CheckRunner(deps.fleet, deps.options?.concurrency ?? 32, deps.probeAt);
    this.restarts = new HealthRestarts({
      ...deps,
      now: this.now,
      isCurrent: (e) =>
        this.entries.get(containerNameKey(e.row.host_id, e.row.container_name)) === e,
      isUpdating: (hostId, name) => this.isUpdating(hostId, name),
      isStopped: () => this.stopped,
      alert: (hostId, name, active, message) => this.alert(hostId, name, active, message),
    });
  }

  /** Loads every stored check and starts the enabled ones, spread over their intervals. */
  start(rows: { row: HealthCheckRow; target: CheckTarget }[]): void {
    this.stopped = false;
    for (const { row, target } of rows) {
      const entry = this.entryFor(row, target);
      this.schedule(entry, this.random() * row.check_interval_seconds * 1000);
    }
    this.unsubscribe = [
      this.deps.fleet.on('containerChanged', (ev) =>
        this.onContainer(ev.hostId, ev.action, ev.name),
      ),
    ];
    this.tickTimer = setInterval(() => this.tick(), this.deps.options?.tickMs ?? TICK_MS);
    this.tickTimer.unref();
    this.flushTimer = setInterval(() => {
      this.flush().catch((err: unknown) =>
        this.deps.log.warn({ err }, 'health status flush failed'),
      );
    }, this.deps.options?.flushMs ?? 15_000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const off of this.unsubscribe.splice(0)) off();
    clearInterval(this.flushTimer);
    clearInterval(this.tickTimer);
    for (const e of this.entries.values()) this.restarts.cancel(e);
    await this.flush();
  }

  get(hostId: string, name: string): HealthCheckRow | undefined {
    return this.entries.get(containerNameKey(hostId, name))?.row;
  }

  all(): HealthCheckRow[] {
    return [...this.entries.values()].map((e) => e.row);
  }

  resolvedUrl(hostId: string, name: string): string | null {
    return this.entries.get(containerNameKey(hostId, name))?.resolvedUrl ?? null;
  }

  restartAttempts(hostId: string, name: string): number {
    return this.entries.get(containerNameKey(hostId, name))?.guard.episodeAttempts ?? 0;
  }

  /** Why checks or restarts are held back now, for the tab; null when nothing is. */
  pausedReason(hostId: string, name: string): string | null {
    const e = this.entries.get(containerNameKey(hostId, name));
    if (e === undefined || e.row.enabled !== 1) return null;
    if (this.updating.has(containerNameKey(hostId, name)))
      return 'Paused while the container is being updated';
    const skip = this.skipReason(e);
    if (skip !== null) return skip;
    if (e.reportedWindow)
      return 'Restarts paused: the safety window allows 12 restarts in 10 minutes';
    if (e.reportedCap) return 'Restart attempts used up for this unhealthy episode';
    return null;
  }

  /**
   * A saved config: keeps the status unless the target changed or the check was turned
   * on or off; a turned-off unhealthy check resolves its alert.
   */
  async put(row: HealthCheckRow, target: CheckTarget): Promise<HealthCheckRow> {
    const key = containerNameKey(row.host_id, row.container_name);
    const prev = this.entries.get(key);
    let next = row;
    if (prev !== undefined) {
      const p = prev.row;
      const retarget =
        p.enabled !== row.enabled ||
        p.url !== row.url ||
        p.method !== row.method ||
        p.expected_status_codes !== row.expected_status_codes;
      next = { ...row, ...(retarget ? unknownStatus() : statusOf(p)) };
      if (retarget && p.current_status !== 'unknown') {
        prev.row = next;
        await this.transition(prev, p.current_status as HealthStatus, 'unknown', 'Check changed');
      }
      prev.dueAt = Number.POSITIVE_INFINITY;
      this.restarts.cancel(prev);
      if (retarget) prev.guard.resetEpisode();
    }
    await this.deps.store.upsert(next);
    const entry = this.entryFor(next, target);
    this.schedule(entry, FIRST_CHECK_AFTER_SAVE_MS);
    if (next.current_status === 'unhealthy') this.restarts.plan(entry);
    return next;
  }

  /** Set while the updates module replaces the container: no checks, no restarts. */
  setUpdating(hostId: string, name: string, updating: boolean): void {
    const key = containerNameKey(hostId, name);
    if (updating) {
      this.updating.add(key);
      return;
    }
    this.updating.delete(key);
    const e = this.entries.get(key);
    if (e === undefined) return;
    // A failure streak from before the update says nothing about the new container.
    e.row = { ...e.row, consecutive_failures: 0, consecutive_successes: 0 };
    e.dirty = true;
  }

  isUpdating(hostId: string, name: string): boolean {
    return this.updating.has(containerNameKey(hostId, name));
  }

  /** Writes the counters that changed since the last flush, in one transaction. */
  async flush(): Promise<void> {
    const dirty = [...this.entries.values()].filter((e) => e.dirty);
    for (const e of dirty) e.dirty = false;
    await this.deps.store.saveStatuses(
      dirty.map((e) => ({
        host_id: e.row.host_id,
        container_name: e.row.container_name,
        ...statusOf(e.row),
      })),
    );
  }

  private entryFor(row: HealthCheckRow, target: CheckTarget): Entry {
    const key = containerNameKey(row.host_id, row.container_name);
    const prev = this.entries.get(key);
    const entry: Entry = {
      row,
      target,
      dueAt: Number.POSITIVE_INFINITY,
      restartTimer: undefined,
      guard: prev?.guard ?? new RestartGuard(),
      running: prev?.running ?? false,
      dirty: false,
      resolvedUrl: prev?.resolvedUrl ?? null,
      reportedCap: false,
      reportedWindow: false,
      userStopped: prev?.userStopped ?? false,
    };
    this.entries.set(key, entry);
    return entry;
  }

  private schedule(e: Entry, delayMs: number): void {
    e.dueAt = this.stopped || e.row.enabled !== 1 ? Number.POSITIVE_INFINITY : this.now() + delayMs;
  }

  /**
   * One timer for every check: each tick starts the checks that are due. A thousand checks
   * wake the process a few times a second instead of a hundred times.
   */
  private tick(): void {
    const now = this.now();
    for (const e of this.entries.values()) {
      if (e.dueAt > now) continue;
      const interval = e.row.check_interval_seconds * 1000;
      // From the due time, not from now: the phases spread at start stay spread.
      e.dueAt = Math.max(e.dueAt + interval * (1 + (this.random() * 2 - 1) * JITTER), now + 1);
      this.runScheduled(e).catch((err: unknown) =>
        this.deps.log.warn({ err, name: e.row.container_name }, 'health check failed unexpectedly'),
      );
    }
  }

  private onContainer(hostId: string, action: string, name: string): void {
    this.runner.containerChanged(hostId, action, name);
    const e = this.entries.get(containerNameKey(hostId, name));
    if (e === undefined) return;
    if (action === 'stop') e.userStopped = true;
    if (action === 'start') e.userStopped = false;
  }

  /** Null when the check can run; otherwise why it waits (host, container, user stop). */
  private skipReason(e: Entry): string | null {
    const host = this.deps.fleet.host(e.row.host_id);
    if (host === undefined || host.status !== 'online') return 'Waiting: the host is not online';
    const c = this.deps.fleet.containerByName(e.row.host_id, e.row.container_name);
    if (c === undefined) return 'Waiting: the container does not exist';
    if (c.state !== 'running')
      return e.userStopped
        ? 'Paused: the container was stopped by a user'
        : 'Paused: the container is not running';
    return null;
  }

  private async runScheduled(e: Entry): Promise<void> {
    if (e.running || this.updating.has(containerNameKey(e.row.host_id, e.row.container_name)))
      return;
    if (this.skipReason(e) !== null) return;
    e.running = true;
    try {
      await this.runner.inTurn(async () => {
        if (this.stopped || e.row.enabled !== 1) return;
        const c = this.deps.fleet.containerByName(e.row.host_id, e.row.container_name);
        if (c === undefined || c.state !== 'running') return;
        const result = await this.runOnce(e.row.host_id, c, e.target, (u) => (e.resolvedUrl = u));
        if (this.entries.get(containerNameKey(e.row.host_id, e.row.container_name)) !== e) return;
        await this.record(e, result);
      });
    } finally {
      e.running = false;
    }
  }

  /** One request for a target of this container (the scheduled run and the test call). */
  runOnce(
    hostId: string,
    c: ContainerSnapshot,
    target: CheckTarget,
    onResolved?: (url: string) => void,
  ): Promise<ProbeResult & { resolvedUrl: string | null }> {
    return this.runner.runOnce(hostId, c, target, onResolved);
  }

  /** Counts a result; enough passes or failures in a row move the status. */
  async record(e: Entry, result: ProbeResult): Promise<void> {
    const old = e.row.current_status as HealthStatus;
    const status = countResult(e.row, result, new Date(this.now()).toISOString());
    e.dirty = true;
    if (status !== old) await this.transition(e, old, status, result.message);
  }

  private async transition(
    e: Entry,
    old: HealthStatus,
    status: HealthStatus,
    message: string,
  ): Promise<void> {
    const { host_id: hostId, container_name: name } = e.row;
    e.row = { ...e.row, current_status: status };
    e.dirty = true;
    await this.flush();
    const c = this.deps.fleet.containerByName(hostId, name);
    const hostName = this.deps.fleet.host(hostId)?.name ?? null;
    const unhealthy = status === 'unhealthy';
    const failures = e.row.consecutive_failures;
    await this.deps.events.record(
      statusChangeEvent({
        hostId,
        hostName,
        containerId: c?.id ?? null,
        name,
        old,
        status,
        failures,
        message,
      }),
    );
    this.deps.hub.publish({
      type: 'health_check_status_changed',
      data: {
        host_id: hostId,
        container_id: c?.id ?? '',
        container_name: name,
        old_status: old,
        new_status: status,
        consecutive_failures: failures,
        last_error_message: e.row.last_error_message,
      },
    });
    if (unhealthy) {
      await this.alert(hostId, name, true, `Health check failing for ${name}: ${message}`);
      this.restarts.plan(e);
    } else if (old === 'unhealthy') {
      this.restarts.recovered(e);
      await this.alert(
        hostId,
        name,
        false,
        status === 'healthy'
          ? `Health check passing again for ${name}`
          : `Health check of ${name} changed`,
      );
    }
  }

  private async alert(hostId: string, name: string, active: boolean, message: string) {
    if (this.deps.alerts === null) return;
    try {
      await this.deps.alerts.signal({
        kind: 'health_check_failed',
        hostId,
        containerName: name,
        active,
        message,
      });
    } catch (err) {
      this.deps.log.warn({ err, name }, 'health_check_failed alert could not be raised');
    }
  }
}
