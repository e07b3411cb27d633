import type { FleetEventMap } from '../../monitor/index.js';
import {
  autoResolve,
  hostRules,
  hostScope,
  logFailure,
  type EngineContext,
} from './engine-context.js';
import type { Timers } from './timers.js';

/**
 * host_down: a host offline for the rule's duration raises, counted from the moment it went
 * offline, whether it had ever been reached or not, and whether the rule or the host came
 * first; back online resolves at once (with the recovery message the rule asks for).
 */
export class HostDown {
  /** Hosts offline now: since when (engine clock of this process) and why. */
  private readonly down = new Map<string, { since: number; error: string | null }>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly timers: Timers,
  ) {}

  onHostStatus(ev: FleetEventMap['hostStatusChanged']): void {
    if (ev.status !== 'offline') {
      this.down.delete(ev.hostId);
      this.timers.cancelPrefixed(`down|${ev.hostId}|`);
      autoResolve(
        this.ctx,
        (a) => a.kind === 'host_down' && a.scope_id === ev.hostId,
        'Host is back online',
      ).catch(logFailure(this.ctx, 'host_down resolve'));
      return;
    }
    // A new reason while offline keeps the first moment: the delay does not start over.
    const since = this.down.get(ev.hostId)?.since ?? this.ctx.now();
    this.down.set(ev.hostId, { since, error: ev.error });
    this.watch(ev.hostId);
  }

  /** Rules changed: offline hosts a rule now watches get their wait. */
  rulesChanged(): void {
    for (const hostId of this.down.keys()) this.watch(hostId);
  }

  /** The host's name or tags changed: rules that watch it now apply. */
  hostChanged(hostId: string): void {
    if (this.down.has(hostId)) this.watch(hostId);
  }

  hostRemoved(hostId: string): void {
    this.down.delete(hostId);
    this.timers.cancelPrefixed(`down|${hostId}|`);
  }

  /** Starts the wait of every rule watching this offline host that has none and no open alert. */
  private watch(hostId: string): void {
    const down = this.down.get(hostId);
    if (down === undefined) return;
    for (const rule of hostRules(this.ctx, 'host_down', hostId)) {
      const key = `down|${hostId}|${rule.id}`;
      if (this.timers.has(key) || this.ctx.lifecycle.current(rule.id, hostId) !== undefined)
        continue;
      const wait = Math.max(0, down.since + rule.duration_seconds * 1000 - this.ctx.now());
      this.timers.later(key, wait, () => {
        const now = this.down.get(hostId);
        if (now === undefined || this.ctx.fleet.host(hostId)?.status !== 'offline') return;
        const scope = hostScope(this.ctx, hostId);
        const message = `Host ${scope.hostName ?? hostId} is offline: ${now.error ?? 'no answer'}`;
        this.ctx.lifecycle
          .raise({ rule, scope, value: null, message, context: { error: now.error } }, 'ongoing')
          .catch(logFailure(this.ctx, 'host_down raise'));
      });
    }
  }
}
