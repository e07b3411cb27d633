import { describe, expect, it } from 'vitest';
import { RestartBudgets } from './restart-budget.js';

describe('RestartBudgets', () => {
  it('allows at most N restarts of a container in any window, on an injected clock', () => {
    let now = 0;
    const b = new RestartBudgets({ windowMs: 600_000, max: 12 }, () => now);
    for (let i = 0; i < 12; i++) {
      expect(b.check('h1', 'web')).toBeNull();
      b.record('h1', 'web');
      now += 1000;
    }
    expect(b.check('h1', 'web')).toEqual({ recent: 12, retryAt: 600_000 });
    // Once the first restart is 10 minutes old, one more is allowed.
    now = 600_000;
    expect(b.check('h1', 'web')).toBeNull();
    expect(b.recent('h1', 'web')).toBe(11);
  });

  it('keeps one budget per container, by host and name', () => {
    let now = 0;
    const b = new RestartBudgets({ windowMs: 60_000, max: 2 }, () => now);
    b.record('h1', 'web');
    b.record('h1', 'web');
    expect(b.check('h1', 'web')).toMatchObject({ recent: 2 });
    expect(b.check('h1', 'db')).toBeNull();
    expect(b.check('h2', 'web')).toBeNull();
    now = 60_000;
    expect(b.recent('h1', 'web')).toBe(0);
  });
});
