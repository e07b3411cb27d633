import { containerKey, containerNameKey } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveHub } from '../../platform/live-hub.js';
import type { AuditRecord } from '../audit/index.js';
import type { EventsService } from '../events/index.js';
import type { ContainerSettings } from '../container-settings/index.js';
import type { Fleet } from '../monitor/index.js';
import { overBudgetText, type Restarter } from '../restarts/index.js';
import type { SettingsService } from '../settings/index.js';
import type { UpdatingQuery } from './containers.service.js';

/** A restart that dies again within this long continues the same episode (same counter). */
const EPISODE_MS = 60_000;

interface Episode {
  attempt: number;
  lastRestartAt: number;
  gaveUp: boolean;
}

export interface AutoRestartDeps {
  fleet: Fleet;
  /** Performs starts within the container's safety budget, shared with health checks. */
  restarter: Restarter;
  settings: SettingsService;
  containerSettings: ContainerSettings;
  events: EventsService;
  hub: LiveHub;
  log: FastifyBaseLogger;
  updating?: UpdatingQuery;
  /** Each automatic start is audited as the system's. */
  audit?: { record(entry: AuditRecord): void };
}

/**
 * Restarts containers with auto-restart on when they die: after retry_delay,
 * up to max_retries times per episode, and never beyond the container's safety budget. A stop by a user (Berth or the CLI) emits a `stop`
 * event after the `die`, which cancels the pending restart; a `docker kill` or a crash
 * does not, so those come back.
 */
export class AutoRestarter {
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly episodes = new Map<string, Episode>();
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: AutoRestartDeps) {
    this.unsubscribe = deps.fleet.on('containerChanged', ({ hostId, action, name }) => {
      this.onEvent(hostId, action, name);
    });
  }

  stop(): void {
    this.unsubscribe();
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private onEvent(hostId: string, action: string, name: string): void {
    const key = containerNameKey(hostId, name);
    if (action === 'stop' || action === 'destroy') {
      this.cancel(key);
      this.episodes.delete(key);
      return;
    }
    if (action === 'start') {
      this.cancel(key);
      return;
    }
    if (action !== 'die' || !this.enabledFor(hostId, name) || this.isUpdating(hostId, name)) return;
    const { max_retries, retry_delay } = this.deps.settings.get();
    const episode = this.episodes.get(key);
    const continuing = episode !== undefined && Date.now() - episode.lastRestartAt < EPISODE_MS;
    const attempt = continuing ? episode.attempt + 1 : 1;
    if (attempt > max_retries) {
      if (continuing && !episode.gaveUp) {
        episode.gaveUp = true;
        this.failed(hostId, name, attempt - 1, 'it keeps stopping').catch((err: unknown) =>
          this.deps.log.warn({ err, name }, 'recording an auto-restart failure failed'),
        );
      }
      return;
    }
    this.schedule(key, hostId, name, attempt, retry_delay * 1000);
  }

  /** An update stops, renames and replaces containers itself, and rolls back on failure. */
  private isUpdating(hostId: string, name: string): boolean {
    return this.deps.updating?.(hostId, name) ?? false;
  }

  private enabledFor(hostId: string, name: string): boolean {
    const row = this.deps.containerSettings.get(hostId, name);
    if (row?.auto_restart === null || row?.auto_restart === undefined)
      return this.deps.settings.get().default_auto_restart;
    return row.auto_restart === 1;
  }

  private schedule(key: string, hostId: string, name: string, attempt: number, delayMs: number) {
    this.cancel(key);
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        this.restart(key, hostId, name, attempt).catch((err: unknown) =>
          this.deps.log.warn({ err, name }, 'auto-restart failed unexpectedly'),
        );
      }, delayMs),
    );
  }

  private cancel(key: string): void {
    const timer = this.pending.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.pending.delete(key);
  }

  private async restart(key: string, hostId: string, name: string, attempt: number) {
    const c = this.deps.fleet.containerByName(hostId, name);
    if (c === undefined || !this.enabledFor(hostId, name) || this.isUpdating(hostId, name)) return;
    if (c.state === 'running' || c.state === 'restarting') return;
    const max = this.deps.settings.get().max_retries;
    const outcome = await this.deps.restarter.automatic(c, 'start');
    if (outcome.kind !== 'over_budget')
      this.deps.audit?.record({
        source: 'schedule',
        actor: 'system',
        action: 'container.auto-restart',
        host_id: c.hostId,
        host_name: c.hostName,
        container_id: c.id,
        container_name: name,
        error: outcome.kind === 'failed' ? outcome.reason : null,
      });
    if (outcome.kind === 'over_budget') {
      // The budget is shared with health checks: this episode ends here, reported once.
      this.episodes.set(key, { attempt: attempt - 1, lastRestartAt: Date.now(), gaveUp: true });
      await this.failed(hostId, name, attempt - 1, overBudgetText(outcome.recent));
      return;
    }
    this.episodes.set(key, { attempt, lastRestartAt: Date.now(), gaveUp: false });
    if (outcome.kind === 'failed') {
      if (attempt < max)
        this.schedule(key, hostId, name, attempt + 1, this.deps.settings.get().retry_delay * 1000);
      else await this.failed(hostId, name, attempt, outcome.reason);
      return;
    }
    await this.deps.events.record({
      severity: 'info',
      category: 'container',
      event_type: 'auto_restart',
      title: `Container auto-restarted: ${name}`,
      message: `Attempt ${attempt} of ${max}`,
      host_id: c.hostId,
      host_name: c.hostName,
      container_id: containerKey(c.hostId, c.id),
      container_name: name,
      triggered_by: 'system',
    });
    this.deps.hub.publish({
      type: 'auto_restart_success',
      data: { host_id: c.hostId, container_id: c.id, container_name: name, attempt },
    });
  }

  private async failed(hostId: string, name: string, attempt: number, reason: string) {
    const c = this.deps.fleet.containerByName(hostId, name);
    const error = `Gave up after ${attempt} attempt(s): ${reason}`;
    await this.deps.events.record({
      severity: 'error',
      category: 'container',
      event_type: 'auto_restart_failed',
      title: `Auto-restart failed: ${name}`,
      message: error,
      host_id: hostId,
      host_name: this.deps.fleet.host(hostId)?.name ?? null,
      container_id: c === undefined ? null : containerKey(hostId, c.id),
      container_name: name,
      triggered_by: 'system',
    });
    this.deps.hub.publish({
      type: 'auto_restart_failed',
      data: { host_id: hostId, container_id: c?.id ?? '', container_name: name, attempt, error },
    });
  }
}
