import { containerScopeId } from '@berth/contracts';
import type { FleetEventMap } from '../../monitor/index.js';
import type { StoredRule } from '../rules.store.js';
import {
  containerRules,
  containerScope,
  hostRules,
  hostScope,
  logFailure,
  type EngineContext,
} from './engine-context.js';
import { clearlyUnasked, lookAgain } from './stop-intent.js';

/**
 * How long after an ambiguous die a user's `stop` event may still arrive (the engine sends
 * it after the die, and the monitor inspects each event before passing it on).
 */
const USER_STOP_GRACE_MS = 400;
/** A stop event this close before a die belongs to it. */
const STOP_BEFORE_DIE_MS = 2000;
/** A die followed by a start within this long is a restart, when the rule sets no window. */
const DEFAULT_RESTART_WINDOW_MS = 60_000;

export interface StateKindOptions {
  userStopGraceMs?: number;
  /** How long a removed container's name may take to come back (a recreate) before its alerts resolve. */
  removalGraceMs?: number;
}

const clearMs = (rule: StoredRule) => (rule.clear_duration_seconds ?? 0) * 1000;

/**
 * The event-driven kinds: container_stopped, container_restart, container_unhealthy and
 * host_down, plus resolving the alerts of a container that went away. Each waits for the
 * rule's duration (the condition re-checked at the end) and clears after its clear duration.
 */
export class StateKinds {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly stopAt = new Map<string, number>();
  private readonly dieAt = new Map<string, number>();
  /** `kill` events since the container last started (a user's stop sends one first). */
  private readonly kills = new Map<string, number>();
  private readonly restarts = new Map<string, number[]>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly options: StateKindOptions = {},
  ) {}

  stop(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  onContainer(ev: FleetEventMap['containerChanged']): void {
    const key = containerScopeId(ev.hostId, ev.name);
    const now = this.ctx.now();
    const action = ev.action.startsWith('health_status')
      ? ev.action.replace(/\s+/g, '')
      : ev.action;
    switch (action) {
      case 'kill':
        this.kills.set(key, (this.kills.get(key) ?? 0) + 1);
        return;
      case 'stop':
        this.stopAt.set(key, now);
        return;
      case 'die': {
        this.dieAt.set(key, now);
        const kills = this.kills.get(key) ?? 0;
        this.kills.delete(key);
        this.died(ev, now, kills).catch(logFailure(this.ctx, 'die'));
        return;
      }
      case 'start':
        this.kills.delete(key);
        this.started(ev, key, now);
        return;
      case 'health_status:unhealthy':
        this.unhealthy(ev);
        return;
      case 'health_status:healthy':
        this.clearKind(
          'container_unhealthy',
          ev.hostId,
          ev.name,
          'Health check passing again',
          () => this.ctx.fleet.containerInfo(ev.hostId, ev.name)?.health === 'healthy',
        );
        return;
      case 'destroy':
        this.kills.delete(key);
        this.removed(ev.hostId, ev.name);
        return;
    }
  }

  /**
   * Decides at once when the die clearly was not asked for (see stop-intent); otherwise
   * waits the grace for a user's `stop` event. Containers no rule watches cost nothing.
   */
  private async died(
    ev: FleetEventMap['containerChanged'],
    diedAt: number,
    kills: number,
  ): Promise<void> {
    const info = this.ctx.fleet.containerInfo(ev.hostId, ev.name);
    if (info === undefined || containerRules(this.ctx, 'container_stopped', info).length === 0)
      return;
    const key = containerScopeId(ev.hostId, ev.name);
    const grace = this.options.userStopGraceMs ?? USER_STOP_GRACE_MS;
    // The grace starts now, so a slow inspect below never makes an ambiguous die wait longer.
    this.later(`die|${key}`, grace, () => this.stopped(ev, diedAt));
    const look = await lookAgain(this.ctx.fleet, ev.hostId, ev.container?.fullId ?? ev.containerId);
    if (look === null || !clearlyUnasked(kills, info, look)) return;
    if (!this.timers.has(`die|${key}`) || this.dieAt.get(key) !== diedAt) return; // decided already
    this.cancel(`die|${key}`);
    this.stopped(ev, diedAt);
  }

  /** A die nobody asked for (no `stop` around it), or any stop of a should-run container. */
  private stopped(ev: FleetEventMap['containerChanged'], diedAt: number): void {
    const key = containerScopeId(ev.hostId, ev.name);
    const stop = this.stopAt.get(key);
    const askedFor = stop !== undefined && stop >= diedAt - STOP_BEFORE_DIE_MS;
    const info = this.ctx.fleet.containerInfo(ev.hostId, ev.name);
    if (info === undefined || info.state === 'running') return;
    if (askedFor && info.desired_state !== 'should_run') return;
    const how = askedFor ? 'was stopped but should be running' : 'stopped unexpectedly';
    const message = `Container ${ev.name} ${how} (exit code ${info.exit_code ?? 'unknown'})`;
    for (const rule of containerRules(this.ctx, 'container_stopped', info)) {
      this.afterDuration(rule, `stopped|${key}`, () => {
        const now = this.ctx.fleet.containerInfo(ev.hostId, ev.name);
        if (now === undefined || now.state === 'running') return;
        this.raise(rule, ev.hostId, ev.name, ev.containerId, message, {
          old_state: 'running',
          new_state: now.state,
          exit_code: now.exit_code,
        });
      });
    }
  }

  private started(ev: FleetEventMap['containerChanged'], key: string, now: number): void {
    this.cancel(`stopped|${key}`);
    this.clearKind(
      'container_stopped',
      ev.hostId,
      ev.name,
      'Container is running again',
      () => this.ctx.fleet.containerInfo(ev.hostId, ev.name)?.state === 'running',
    );
    const died = this.dieAt.get(key);
    const info = this.ctx.fleet.containerInfo(ev.hostId, ev.name);
    if (died === undefined || info === undefined) return;
    for (const rule of containerRules(this.ctx, 'container_restart', info)) {
      const windowMs =
        rule.duration_seconds > 0 ? rule.duration_seconds * 1000 : DEFAULT_RESTART_WINDOW_MS;
      if (now - died > windowMs) continue;
      const times = (this.restarts.get(`${rule.id}|${key}`) ?? []).filter(
        (t) => now - t <= windowMs,
      );
      times.push(now);
      this.restarts.set(`${rule.id}|${key}`, times);
      if (times.length < rule.occurrences) continue;
      const message = `Container ${ev.name} restarted ${times.length} time(s) within ${windowMs / 1000} s`;
      this.raise(
        rule,
        ev.hostId,
        ev.name,
        ev.containerId,
        message,
        { restart_count: times.length },
        times.length,
      );
      this.later(`restart-clear|${rule.id}|${key}`, Math.max(clearMs(rule), 1000), () => {
        const last = this.restarts.get(`${rule.id}|${key}`)?.at(-1) ?? 0;
        if (this.ctx.now() - last < clearMs(rule)) return;
        this.resolveOpen(rule, containerScopeId(ev.hostId, ev.name), 'No further restarts');
      });
    }
  }

  private unhealthy(ev: FleetEventMap['containerChanged']): void {
    const info = this.ctx.fleet.containerInfo(ev.hostId, ev.name);
    if (info === undefined) return;
    const key = containerScopeId(ev.hostId, ev.name);
    this.cancel(`clear|container_unhealthy|${key}`);
    for (const rule of containerRules(this.ctx, 'container_unhealthy', info)) {
      this.afterDuration(rule, `unhealthy|${rule.id}|${key}`, () => {
        if (this.ctx.fleet.containerInfo(ev.hostId, ev.name)?.health !== 'unhealthy') return;
        this.raise(
          rule,
          ev.hostId,
          ev.name,
          ev.containerId,
          `Container ${ev.name} health check is failing`,
          {
            old_state: 'healthy',
            new_state: 'unhealthy',
          },
        );
      });
    }
  }

  /** Offline for the rule's duration raises; back online resolves at once. */
  onHostStatus(ev: FleetEventMap['hostStatusChanged']): void {
    if (ev.status !== 'offline') {
      for (const rule of this.ctx.rulesOf('host_down')) this.cancel(`down|${rule.id}|${ev.hostId}`);
      this.ctx.lifecycle
        .resolveWhere(
          (a) => a.kind === 'host_down' && a.scope_id === ev.hostId,
          'Host is back online',
        )
        .catch(logFailure(this.ctx, 'host_down resolve'));
      return;
    }
    for (const rule of hostRules(this.ctx, 'host_down', ev.hostId)) {
      this.afterDuration(rule, `down|${rule.id}|${ev.hostId}`, () => {
        if (this.ctx.fleet.host(ev.hostId)?.status !== 'offline') return;
        const scope = hostScope(this.ctx, ev.hostId);
        const message = `Host ${scope.hostName ?? ev.hostId} is offline: ${ev.error ?? 'no answer'}`;
        this.ctx.lifecycle
          .raise({ rule, scope, value: null, message, context: { error: ev.error } }, 'ongoing')
          .catch(logFailure(this.ctx, 'host_down raise'));
      });
    }
  }

  /** After the grace, a name that did not come back (no recreate) resolves its alerts. */
  removed(hostId: string, name: string): void {
    const scopeId = containerScopeId(hostId, name);
    this.later(`removed|${scopeId}`, this.options.removalGraceMs ?? 10_000, () => {
      if (this.ctx.fleet.host(hostId)?.status === 'offline') return;
      if (this.ctx.fleet.containerByName(hostId, name) !== undefined) return;
      this.ctx.lifecycle
        .resolveWhere((a) => a.scope_id === scopeId, 'Container removed')
        .catch(logFailure(this.ctx, 'removed-container resolve'));
    });
  }

  private raise(
    rule: StoredRule,
    hostId: string,
    name: string,
    containerId: string,
    message: string,
    context: Record<string, string | number | null>,
    value: number | null = null,
  ): void {
    const scope = containerScope(this.ctx, hostId, name, containerId);
    this.ctx.lifecycle
      .raise({ rule, scope, value, message, context }, 'occurrence')
      .catch(logFailure(this.ctx, `${rule.kind} raise`));
  }

  /** Resolves the kind's open alerts for a container once the good state held for the clear duration. */
  private clearKind(
    kind: StoredRule['kind'],
    hostId: string,
    name: string,
    reason: string,
    stillGood: () => boolean,
  ): void {
    const scopeId = containerScopeId(hostId, name);
    for (const alert of this.ctx.lifecycle.unresolved()) {
      if (alert.kind !== kind || alert.scope_id !== scopeId || alert.rule_id === null) continue;
      const rule = this.ctx.rule(alert.rule_id);
      const delay = rule === undefined ? 0 : clearMs(rule);
      this.later(`clear|${kind}|${alert.id}`, delay, () => {
        if (!stillGood()) return;
        this.resolveOpen(rule, scopeId, reason, alert.id);
      });
    }
  }

  private resolveOpen(rule: StoredRule | undefined, scopeId: string, reason: string, id?: string) {
    const alert =
      id ?? (rule === undefined ? undefined : this.ctx.lifecycle.current(rule.id, scopeId)?.id);
    if (alert === undefined) return;
    this.ctx.lifecycle
      .resolve(alert, reason, rule === undefined ? null : { rule })
      .catch(logFailure(this.ctx, 'auto resolve'));
  }

  private afterDuration(rule: StoredRule, key: string, fn: () => void): void {
    if (rule.duration_seconds <= 0) fn();
    else this.later(key, rule.duration_seconds * 1000, fn);
  }

  private later(key: string, ms: number, fn: () => void): void {
    this.cancel(key);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        fn();
      }, ms),
    );
  }

  private cancel(key: string): void {
    const t = this.timers.get(key);
    if (t !== undefined) clearTimeout(t);
    this.timers.delete(key);
  }
}
