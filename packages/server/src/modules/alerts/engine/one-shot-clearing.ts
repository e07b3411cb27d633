import type { AlertRow } from '../alerts.store.js';
import { logFailure, type EngineContext } from './engine-context.js';
import { Timers } from './timers.js';

/** The kinds that report a moment (an update ran) rather than a condition that holds. */
const ONE_SHOT = new Set(['update_completed', 'update_failed']);

/**
 * update_completed and update_failed alerts clear as the Rule Summary says ("Clears
 * automatically after 30 s"): when their rule has auto_resolve, the rule's clear duration
 * after they were last seen. Nothing recovered, so no recovery message is sent. Alerts
 * raised before a restart clear when their time is up, never later.
 */
export class OneShotClearing {
  private readonly timers = new Timers();

  constructor(private readonly ctx: EngineContext) {}

  /** Every unresolved one-shot alert gets its clearing (again: a rule may have changed). */
  trackAll(): void {
    for (const row of this.ctx.lifecycle.unresolved()) this.track(row);
  }

  /** An alert raised, or seen again (its clock starts over). */
  track(row: AlertRow): void {
    if (!ONE_SHOT.has(row.kind) || row.rule_id === null) return;
    const rule = this.ctx.rule(row.rule_id);
    const key = `one-shot|${row.id}`;
    if (rule?.auto_resolve !== true) {
      this.timers.cancel(key);
      return;
    }
    const seconds = rule.clear_duration_seconds ?? 0;
    const wait = Math.max(0, Date.parse(row.last_seen) + seconds * 1000 - this.ctx.now());
    const reason =
      seconds === 0 ? 'Cleared automatically' : `Cleared automatically after ${seconds} s`;
    this.timers.later(key, wait, () => {
      if (!this.ctx.lifecycle.unresolved().some((a) => a.id === row.id)) return;
      this.ctx.lifecycle
        .resolve(row.id, reason, null)
        .catch(logFailure(this.ctx, `${row.kind} clearing`));
    });
  }

  stop(): void {
    this.timers.clear();
  }
}
