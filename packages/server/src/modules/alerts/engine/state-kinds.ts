import { containerScopeId } from '@berth/contracts';
import type { FleetEventMap } from '../../monitor/index.js';
import type { StoredRule } from '../rules.store.js';
import {
  autoResolve,
  containerRules,
  containerScope,
  logFailure,
  type EngineContext,
} from './engine-context.js';
import { ruleScopeKey } from './alert-lifecycle.js';
import { HostDown } from './host-down.js';
import { dieIntent, statusNow, type DieIntent } from './stop-intent.js';
import { Timers } from './timers.js';

/**
 * How long after an ambiguous die a user's `stop` event may still arrive (the engine sends
 * it after the die, and the monitor inspects each event before passing it on).
 */
const USER_STOP_GRACE_MS = 400;
/** A stop event this close before a die belongs to it. */
const STOP_BEFORE_DIE_MS = 2000;
/** A die followed by a start within this long is a restart, when the rule sets no window. */
const DEFAULT_RESTART_WINDOW_MS = 60_000;
/**
 * How long a should-run container that someone stopped may take to start again (a restart:
 * the engine starts it once the stop is over) before it is "stopped but should be running".
 */
const RESTART_GRACE_MS = 5000;

export interface StateKindOptions {
  userStopGraceMs?: number;
  /** How long a should-run container someone stopped may take to start again (a restart). */
  restartGraceMs?: number;
  /** How long a removed container's name may take to come back (a recreate) before its alerts resolve. */
  removalGraceMs?: number;
}

const clearMs = (rule: StoredRule) => (rule.clear_duration_seconds ?? 0) * 1000;

/**
 * The event-driven kinds: container_stopped, container_restart, container_unhealthy and
 * host_down (host-down.ts), plus resolving the alerts of a container that went away. Each
 * waits for the rule's duration (the condition re-checked at the end) and clears after its
 * clear duration.
 */
export class StateKinds {
  private readonly timers = new Timers();
  readonly hostDown: HostDown;
  private readonly stopAt = new Map<string, number>();
  private readonly dieAt = new Map<string, number>();
  /** The signals of the `kill` events since the container last started. */
  private readonly kills = new Map<string, (string | null)[]>();
  private readonly restarts = new Map<string, number[]>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly options: StateKindOptions = {},
  ) {
    this.hostDown = new HostDown(ctx, this.timers);
  }

  stop(): void {
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
        this.kills.set(key, [...(this.kills.get(key) ?? []), ev.signal]);
        return;
      case 'stop':
        this.stopAt.set(key, now);
        return;
      case 'die': {
        this.dieAt.set(key, now);
        const kills = this.kills.get(key) ?? [];
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
          () => this.ctx.container(ev.hostId, ev.name)?.health === 'healthy',
        );
        return;
      case 'destroy':
        this.kills.delete(key);
        this.removed(ev.hostId, ev.name);
        return;
    }
  }

  /**
   * Decides at once when the kill events tell (see stop-intent), after one look at the engine
   * for a lone SIGKILL, and otherwise after the grace a user's `stop` event may take.
   * Containers no rule watches cost nothing.
   */
  private async died(
    ev: FleetEventMap['containerChanged'],
    diedAt: number,
    kills: readonly (string | null)[],
  ): Promise<void> {
    const info = this.ctx.container(ev.hostId, ev.name);
    const dying = ev.container ?? this.ctx.fleet.containerByName(ev.hostId, ev.name);
    if (info === undefined || dying === undefined) return;
    if (containerRules(this.ctx, 'container_stopped', info).length === 0) return;
    const key = containerScopeId(ev.hostId, ev.name);
    const intent = dieIntent(kills, dying);
    if (intent === 'asked' || intent === 'unasked') {
      this.stopped(ev, diedAt, intent);
      return;
    }
    const grace = this.options.userStopGraceMs ?? USER_STOP_GRACE_MS;
    if (intent === 'unsure') {
      this.timers.later(`die|${key}`, grace, () => this.stopped(ev, diedAt, 'unsure'));
      return;
    }
    // A lone SIGKILL: a `docker kill`, unless the engine is removing the container (`rm -f`).
    const status = await statusNow(this.ctx.fleet, ev.hostId, dying.fullId);
    if (this.dieAt.get(key) !== diedAt) return; // it started and died again meanwhile
    if (status === 'exited') this.stopped(ev, diedAt, 'unasked');
    else if (status === null)
      this.timers.later(`die|${key}`, grace, () => this.stopped(ev, diedAt, 'unsure'));
  }

  /**
   * What a die means once its intent is known (an unsure one: a `stop` event around it says
   * someone asked). A crash or kill is "stopped unexpectedly"; an exit 0 nobody asked for is
   * a job that finished, news only for a should-run container; a stop or restart someone
   * asked for is news only for a should-run container that has not started again after the
   * restart grace.
   */
  private stopped(ev: FleetEventMap['containerChanged'], diedAt: number, intent: DieIntent): void {
    const key = containerScopeId(ev.hostId, ev.name);
    const stop = this.stopAt.get(key);
    const askedFor =
      intent === 'asked' ||
      (intent === 'unsure' && stop !== undefined && stop >= diedAt - STOP_BEFORE_DIE_MS);
    const info = this.ctx.container(ev.hostId, ev.name);
    if (info === undefined || info.state === 'running') return;
    const shouldRun = info.desired_state === 'should_run';
    const finished = !askedFor && info.exit_code === 0;
    if ((askedFor || finished) && !shouldRun) return;
    const code = `(exit code ${info.exit_code ?? 'unknown'})`;
    const message = askedFor
      ? `Container ${ev.name} was stopped but should be running ${code}`
      : finished
        ? `Container ${ev.name} exited but should be running ${code}`
        : `Container ${ev.name} stopped unexpectedly ${code}`;
    for (const rule of containerRules(this.ctx, 'container_stopped', info)) {
      const waitMs = Math.max(
        rule.duration_seconds * 1000,
        askedFor ? (this.options.restartGraceMs ?? RESTART_GRACE_MS) : 0,
      );
      this.afterMs(`stopped|${key}|${rule.id}`, waitMs, () => {
        const now = this.ctx.container(ev.hostId, ev.name);
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
    this.timers.cancelPrefixed(`stopped|${key}|`);
    this.clearKind(
      'container_stopped',
      ev.hostId,
      ev.name,
      'Container is running again',
      () => this.ctx.container(ev.hostId, ev.name)?.state === 'running',
    );
    const died = this.dieAt.get(key);
    const info = this.ctx.container(ev.hostId, ev.name);
    if (died === undefined || info === undefined) return;
    for (const rule of containerRules(this.ctx, 'container_restart', info)) {
      const windowMs =
        rule.duration_seconds > 0 ? rule.duration_seconds * 1000 : DEFAULT_RESTART_WINDOW_MS;
      if (now - died > windowMs) continue;
      const times = (this.restarts.get(ruleScopeKey(rule.id, key)) ?? []).filter(
        (t) => now - t <= windowMs,
      );
      times.push(now);
      this.restarts.set(ruleScopeKey(rule.id, key), times);
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
      this.timers.later(`restart-clear|${rule.id}|${key}`, Math.max(clearMs(rule), 1000), () => {
        const last = this.restarts.get(ruleScopeKey(rule.id, key))?.at(-1) ?? 0;
        if (this.ctx.now() - last < clearMs(rule)) return;
        this.resolveOpen(rule, containerScopeId(ev.hostId, ev.name), 'No further restarts');
      });
    }
  }

  private unhealthy(ev: FleetEventMap['containerChanged']): void {
    const info = this.ctx.container(ev.hostId, ev.name);
    if (info === undefined) return;
    const key = containerScopeId(ev.hostId, ev.name);
    this.timers.cancel(`clear|container_unhealthy|${key}`);
    for (const rule of containerRules(this.ctx, 'container_unhealthy', info)) {
      this.afterDuration(rule, `unhealthy|${rule.id}|${key}`, () => {
        if (this.ctx.container(ev.hostId, ev.name)?.health !== 'unhealthy') return;
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

  /** After the grace, a name that did not come back (no recreate) resolves its alerts. */
  removed(hostId: string, name: string): void {
    const scopeId = containerScopeId(hostId, name);
    this.timers.later(`removed|${scopeId}`, this.options.removalGraceMs ?? 10_000, () => {
      if (this.ctx.fleet.host(hostId)?.status === 'offline') return;
      if (this.ctx.fleet.containerByName(hostId, name) !== undefined) return;
      autoResolve(this.ctx, (a) => a.scope_id === scopeId, 'Container removed').catch(
        logFailure(this.ctx, 'removed-container resolve'),
      );
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
      this.timers.later(`clear|${kind}|${alert.id}`, delay, () => {
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
    this.afterMs(key, rule.duration_seconds * 1000, fn);
  }

  private afterMs(key: string, ms: number, fn: () => void): void {
    if (ms <= 0) fn();
    else this.timers.later(key, ms, fn);
  }
}
