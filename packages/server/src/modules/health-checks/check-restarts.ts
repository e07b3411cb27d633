import { containerKey } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveHub } from '../../platform/live-hub.js';
import type { EventsService } from '../events/index.js';
import type { ContainerSnapshot, Fleet } from '../monitor/index.js';
import { overBudgetText, type Restarter } from '../restarts/index.js';
import type { HealthCheckRow } from './health-checks.store.js';
import type { RestartGuard } from './restart-guard.js';

/** What restarts keep on a check's entry. */
export interface RestartState {
  row: HealthCheckRow;
  restartTimer: ReturnType<typeof setTimeout> | undefined;
  guard: RestartGuard;
  /** Set when the episode's cap or the safety window was reported (once per streak). */
  reportedCap: boolean;
  reportedWindow: boolean;
  /** The last stop/start seen for the container was a stop: a user (or the CLI) stopped it. */
  userStopped: boolean;
}

export interface RestartDeps {
  fleet: Fleet;
  restarter: Restarter;
  events: EventsService;
  hub: LiveHub;
  log: FastifyBaseLogger;
  now: () => number;
  /** Whether `e` is still the check's entry: a saved config replaces it. */
  isCurrent: (e: RestartState) => boolean;
  isUpdating: (hostId: string, name: string) => boolean;
  isStopped: () => boolean;
  /** Raises (active) or resolves the container's health_check_failed alert. */
  alert: (hostId: string, name: string, active: boolean, message: string) => Promise<void>;
}

/**
 * Restarts of unhealthy containers: after the check's retry delay, within its
 * episode cap and the safety window, never for a container a user stopped nor while it is
 * being updated; what is refused or fails is written to the event log once.
 */
export class HealthRestarts {
  constructor(private readonly deps: RestartDeps) {}

  /** Plans the next attempt `delayMs` from now (the check's retry delay unless told). */
  plan(e: RestartState, delayMs = e.row.restart_retry_delay_seconds * 1000): void {
    this.cancel(e);
    if (this.deps.isStopped() || e.row.enabled !== 1 || e.row.auto_restart_on_failure !== 1) return;
    e.restartTimer = setTimeout(() => {
      e.restartTimer = undefined;
      this.restart(e).catch((err: unknown) =>
        this.deps.log.warn(
          { err, name: e.row.container_name },
          'health restart failed unexpectedly',
        ),
      );
    }, delayMs);
    e.restartTimer.unref();
  }

  cancel(e: RestartState): void {
    clearTimeout(e.restartTimer);
    e.restartTimer = undefined;
  }

  /** The check is no longer unhealthy: the next episode starts with a full budget. */
  recovered(e: RestartState): void {
    this.cancel(e);
    e.guard.resetEpisode();
    e.reportedCap = false;
    e.reportedWindow = false;
  }

  /** Restarts an unhealthy container if its episode cap and the safety window allow it. */
  private async restart(e: RestartState): Promise<void> {
    const { host_id: hostId, container_name: name } = e.row;
    if (!this.deps.isCurrent(e)) return;
    if (e.row.current_status !== 'unhealthy' || e.row.auto_restart_on_failure !== 1) return;
    if (e.row.enabled !== 1 || e.userStopped) return;
    const delay = e.row.restart_retry_delay_seconds * 1000;
    if (this.deps.isUpdating(hostId, name)) {
      this.plan(e, delay);
      return;
    }
    const c = this.deps.fleet.containerByName(hostId, name);
    if (c === undefined) return;
    const refusal = e.guard.check(e.row.max_restart_attempts);
    if (refusal?.reason === 'episode_cap') {
      if (!e.reportedCap) {
        e.reportedCap = true;
        await this.note(
          e,
          c,
          'warning',
          'auto_restart_failed',
          `Berth gave up restarting ${name}`,
          `${refusal.attempts} restart(s) in this unhealthy episode (max ${e.row.max_restart_attempts}); it stays unhealthy until the check passes`,
        );
      }
      return;
    }
    const outcome = await this.deps.restarter.automatic(c, 'restart');
    if (outcome.kind === 'over_budget') {
      if (!e.reportedWindow) {
        e.reportedWindow = true;
        const text = `${overBudgetText(outcome.recent)}; Berth stopped restarting ${name}`;
        await this.note(
          e,
          c,
          'error',
          'auto_restart_failed',
          `Berth stopped restarting ${name}`,
          text,
        );
        await this.deps.alert(hostId, name, true, text);
      }
      this.plan(e, Math.max(delay, outcome.retryAt - this.deps.now()));
      return;
    }
    e.reportedWindow = false;
    e.guard.record();
    const attempt = e.guard.episodeAttempts;
    if (outcome.kind === 'failed') {
      await this.note(
        e,
        c,
        'error',
        'auto_restart_failed',
        `Health-check restart failed: ${name}`,
        `Attempt ${attempt} of ${e.row.max_restart_attempts}: ${outcome.reason}`,
      );
      if (attempt < e.row.max_restart_attempts) this.plan(e, delay);
      return;
    }
    await this.deps.fleet.refresh(hostId, c.id).catch(() => null);
    await this.note(
      e,
      c,
      'warning',
      'auto_restart',
      `Container restarted by health check: ${name}`,
      `Attempt ${attempt} of ${e.row.max_restart_attempts} after ${e.row.consecutive_failures} consecutive failure(s): ${e.row.last_error_message ?? 'unhealthy'}`,
    );
    this.deps.hub.publish({
      type: 'auto_restart_success',
      data: { host_id: hostId, container_id: c.id, container_name: name, attempt },
    });
    // The next attempt waits the delay again and happens only if the check still fails;
    // after the last one, the same wait reports the used-up episode once.
    this.plan(e, delay);
  }

  private async note(
    e: RestartState,
    c: ContainerSnapshot,
    severity: 'info' | 'warning' | 'error',
    eventType: string,
    title: string,
    message: string,
  ): Promise<void> {
    await this.deps.events.record({
      severity,
      category: 'container',
      event_type: eventType,
      title,
      message,
      host_id: e.row.host_id,
      host_name: c.hostName,
      container_id: containerKey(e.row.host_id, c.id),
      container_name: e.row.container_name,
      triggered_by: 'system',
    });
  }
}
