import type { ContainerSnapshot, Fleet } from '../monitor/index.js';
import type { BudgetRefusal, RestartBudgets } from './restart-budget.js';

/** What an automatic start or restart came to. */
export type AutomaticOutcome =
  { kind: 'done' } | ({ kind: 'over_budget' } & BudgetRefusal) | { kind: 'failed'; reason: string };

export interface RestarterDeps {
  fleet: Fleet;
  budgets: RestartBudgets;
}

/**
 * The one path for the starts and restarts Berth makes on its own (auto-restart, health
 * checks): every one counts against the container's single safety budget, whoever asked.
 * Callers hold back while an update replaces the container (it starts, stops and rolls
 * back on its own, and its starts do not count).
 */
export class Restarter {
  constructor(private readonly deps: RestarterDeps) {}

  /** Starts (a stopped container) or restarts (a running one) if the budget allows it. */
  async automatic(c: ContainerSnapshot, how: 'start' | 'restart'): Promise<AutomaticOutcome> {
    const refusal = this.deps.budgets.check(c.hostId, c.name);
    if (refusal !== null) return { kind: 'over_budget', ...refusal };
    // A failed attempt counts too: an engine that keeps refusing is not asked without end.
    this.deps.budgets.record(c.hostId, c.name);
    try {
      const engine = this.deps.fleet.engine(c.hostId, { purpose: 'action' });
      if (engine === null) throw new Error(`host ${c.hostName} is offline`);
      if (how === 'start') await engine.startContainer(c.fullId);
      else await engine.restartContainer(c.fullId);
    } catch (err) {
      return { kind: 'failed', reason: err instanceof Error ? err.message : String(err) };
    }
    return { kind: 'done' };
  }
}
