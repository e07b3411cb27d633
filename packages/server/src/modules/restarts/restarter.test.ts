import { describe, expect, it } from 'vitest';
import type { ContainerSnapshot, Fleet } from '../monitor/index.js';
import { RestartBudgets } from './restart-budget.js';
import { Restarter } from './restarter.js';

const web = {
  hostId: 'h1',
  hostName: 'one',
  name: 'web',
  fullId: 'f'.repeat(64),
} as ContainerSnapshot;

/** A fleet whose engine records calls and fails when told. */
function fleet(calls: string[], fail = false): Fleet {
  const call = (what: string) => () => {
    calls.push(what);
    return fail ? Promise.reject(new Error('engine says no')) : Promise.resolve();
  };
  return {
    engine: () => ({ startContainer: call('start'), restartContainer: call('restart') }),
  } as unknown as Fleet;
}

describe('Restarter', () => {
  it('starts and restarts through one budget, whoever asks, and refuses past it', async () => {
    let now = 0;
    const calls: string[] = [];
    const budgets = new RestartBudgets({ windowMs: 60_000, max: 2 }, () => now);
    const r = new Restarter({ fleet: fleet(calls), budgets });
    expect(await r.automatic(web, 'start')).toEqual({ kind: 'done' });
    expect(await r.automatic(web, 'restart')).toEqual({ kind: 'done' });
    expect(await r.automatic(web, 'start')).toEqual({
      kind: 'over_budget',
      recent: 2,
      retryAt: 60_000,
    });
    expect(calls).toEqual(['start', 'restart']);
    now = 60_000;
    expect(await r.automatic(web, 'start')).toEqual({ kind: 'done' });
  });

  it('counts a failed attempt and says why it failed', async () => {
    const calls: string[] = [];
    const budgets = new RestartBudgets({ windowMs: 60_000, max: 5 }, () => 0);
    const r = new Restarter({ fleet: fleet(calls, true), budgets });
    expect(await r.automatic(web, 'restart')).toEqual({ kind: 'failed', reason: 'engine says no' });
    expect(budgets.recent('h1', 'web')).toBe(1);
  });

  it('reports an offline host as a failure', async () => {
    const budgets = new RestartBudgets();
    const r = new Restarter({ fleet: { engine: () => null } as unknown as Fleet, budgets });
    expect(await r.automatic(web, 'start')).toEqual({
      kind: 'failed',
      reason: 'host one is offline',
    });
  });
});
