import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredRule } from '../rules.store.js';
import type { EngineContext } from './engine-context.js';
import { HostDown } from './host-down.js';
import { Timers } from './timers.js';

// host_down's clock: the delay runs from the moment the host went offline, whatever came
// first (the rule or the outage) and however often the reason changes meanwhile.
const rule = (id: string, duration_seconds: number) =>
  ({
    id,
    kind: 'host_down',
    scope: 'host',
    enabled: true,
    duration_seconds,
    host_selector_json: { include_all: true, include: [], tags: [] },
  }) as unknown as StoredRule;

function setUp(rules: StoredRule[]) {
  const status = new Map<string, 'online' | 'offline'>();
  const raised: { rule: string; host: string; message: string; at: number }[] = [];
  const ctx = {
    now: () => Date.now(),
    rulesOf: () => rules,
    rule: (id: string) => rules.find((r) => r.id === id),
    host: (id: string) => ({ id, name: `host-${id}`, tags: [] }),
    fleet: { host: (id: string) => ({ status: status.get(id) ?? 'online' }) },
    log: { warn: () => undefined },
    lifecycle: {
      current: (ruleId: string, hostId: string) =>
        raised.find((r) => r.rule === ruleId && r.host === hostId),
      raise: (input: { rule: StoredRule; scope: { id: string }; message: string }) => {
        raised.push({
          rule: input.rule.id,
          host: input.scope.id,
          message: input.message,
          at: Date.now(),
        });
        return Promise.resolve();
      },
      resolveWhere: () => Promise.resolve(0),
    },
  } as unknown as EngineContext;
  const down = new HostDown(ctx, new Timers());
  const offline = (hostId: string, error: string) => {
    status.set(hostId, 'offline');
    down.onHostStatus({ hostId, status: 'offline', error });
  };
  return { down, raised, offline, rules };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('host_down', () => {
  it('raises once the rule duration has passed since the host went offline', () => {
    const { raised, offline } = setUp([rule('r1', 10)]);
    offline('h1', 'Connection refused');
    vi.advanceTimersByTime(9_999);
    expect(raised).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(raised.map((r) => r.message)).toEqual(['Host host-h1 is offline: Connection refused']);
  });

  it('a new reason while offline does not start the delay over', () => {
    const { raised, offline } = setUp([rule('r1', 10)]);
    offline('h1', 'Connection refused');
    vi.advanceTimersByTime(6_000);
    offline('h1', 'Timed out');
    vi.advanceTimersByTime(4_000);
    expect(raised.map((r) => r.message)).toEqual(['Host host-h1 is offline: Timed out']);
  });

  it('a rule created during an outage counts from the outage, not from its own creation', () => {
    const rules: StoredRule[] = [];
    const { down, raised, offline } = setUp(rules);
    offline('h1', 'Socket not found');
    vi.advanceTimersByTime(8_000);
    rules.push(rule('late', 10));
    down.rulesChanged();
    vi.advanceTimersByTime(1_999);
    expect(raised).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(raised).toHaveLength(1);
    rules.push(rule('later', 5)); // past its delay already: at once
    down.rulesChanged();
    vi.advanceTimersByTime(0);
    expect(raised.map((r) => r.rule)).toEqual(['late', 'later']);
  });

  it('back online before the delay, or removed, raises nothing', () => {
    const { down, raised, offline } = setUp([rule('r1', 10)]);
    offline('h1', 'Connection refused');
    offline('h2', 'Connection refused');
    down.onHostStatus({ hostId: 'h1', status: 'online', error: null });
    down.hostRemoved('h2');
    vi.advanceTimersByTime(20_000);
    expect(raised).toHaveLength(0);
  });
});
