import { describe, expect, it } from 'vitest';
import type { StoredRule } from '../rules.store.js';
import type { EngineContext } from './engine-context.js';
import { LookBack, LOOK_BACK_EVERY_MS, type LookBackPort } from './look-back.js';

const T = 1_800_000_000; // s
const rule = (over: Partial<StoredRule> = {}) =>
  ({
    id: 'r1',
    name: 'cpu 30 min',
    kind: 'cpu_high',
    scope: 'host',
    enabled: true,
    metric: 'cpu_percent',
    operator: '>=',
    threshold: 90,
    clear_threshold: 50,
    duration_seconds: 1800,
    clear_duration_seconds: 60,
    occurrences: 3,
    look_back: true,
    host_selector_json: null,
    container_selector_json: null,
    suppress_during_updates: false,
    ...over,
  }) as StoredRule;

interface Row {
  id: string;
  rule: string;
  scope: string;
  value: number;
  message: string;
}

/** A host h1 online; history answers `means[window seconds]` for it. */
function setUp(r: StoredRule, means: Record<number, { mean: number; first: number }>) {
  const clock = { ms: T * 1000 };
  const open = new Map<string, Row>();
  const resolved: string[] = [];
  const asked: { from: number; to: number }[] = [];
  const ctx = {
    now: () => clock.ms,
    rulesOf: () => [r],
    rule: () => r,
    host: (id: string) => ({ id, name: `host-${id}`, tags: [] }),
    fleet: { host: () => ({ status: 'online', name: 'h' }), containers: () => [] },
    log: { warn: () => undefined },
    updating: () => false,
    lifecycle: {
      current: (ruleId: string, scopeId: string) => open.get(`${ruleId}/${scopeId}`),
      raise: (input: {
        rule: StoredRule;
        scope: { id: string };
        value: number;
        message: string;
      }) => {
        const row = {
          id: `a${open.size + resolved.length}`,
          rule: input.rule.id,
          scope: input.scope.id,
          value: input.value,
          message: input.message,
        };
        open.set(`${row.rule}/${row.scope}`, row);
        return Promise.resolve(row);
      },
      resolve: (id: string) => {
        for (const [k, v] of open) if (v.id === id) open.delete(k);
        resolved.push(id);
        return Promise.resolve();
      },
    },
  } as unknown as EngineContext;
  const port: LookBackPort = (q) => {
    asked.push({ from: q.from, to: q.to });
    const m = means[q.to - q.from];
    if (m === undefined) return Promise.resolve([]);
    // `first`: seconds after the window's start where history begins.
    return Promise.resolve([
      { hostId: 'h1', name: '', mean: m.mean, first: q.from + m.first, last: q.to - 20 },
    ]);
  };
  const lb = new LookBack(ctx, port, () => ['h1']);
  const touches: { value: number; message: string }[] = [];
  const pass = async () => {
    await lb.pass([r], touches as never);
    await Promise.resolve();
  };
  return { lb, clock, open, resolved, asked, touches, pass };
}

describe('look-back metric rules (history port faked)', () => {
  it('raises at once when the window, covered by history, has a breaching mean', async () => {
    const s = setUp(rule(), { 1800: { mean: 93.4, first: 5 } });
    await s.pass();
    expect(s.asked).toEqual([{ from: T - 1800, to: T }]);
    expect([...s.open.values()]).toEqual([
      expect.objectContaining({
        scope: 'h1',
        value: 93.4,
        message: 'CPU averaged 93.4% over the last 30 min (threshold >= 90.0%)',
      }),
    ]);
  });

  it('waits while history does not cover the window, and on a mean on the good side', async () => {
    const young = setUp(rule(), { 1800: { mean: 99, first: 600 } }); // history starts 10 min in
    await young.pass();
    expect(young.open.size).toBe(0);
    const calm = setUp(rule(), { 1800: { mean: 89.9, first: 0 } });
    await calm.pass();
    expect(calm.open.size).toBe(0);
    const below = setUp(rule({ operator: '<', threshold: 5, clear_threshold: 10 }), {
      1800: { mean: 4, first: 0 },
    });
    await below.pass();
    expect(below.open.size).toBe(1);
  });

  it("reads a long window less often: a day's every 8 minutes", async () => {
    const s = setUp(rule({ duration_seconds: 86_400 }), { 86_400: { mean: 10, first: 0 } });
    await s.pass();
    s.clock.ms += 479_999;
    await s.pass();
    expect(s.asked).toHaveLength(1);
    s.clock.ms += 1;
    await s.pass();
    expect(s.asked).toHaveLength(2);
  });

  it('reads a rule at most once per 10 s bucket', async () => {
    const s = setUp(rule(), { 1800: { mean: 10, first: 0 } });
    await s.pass();
    s.clock.ms += LOOK_BACK_EVERY_MS - 1;
    await s.pass();
    expect(s.asked).toHaveLength(1);
    s.clock.ms += 1;
    await s.pass();
    expect(s.asked).toHaveLength(2);
  });

  it('keeps the alert up to date while the clear window breaches its threshold, clears after', async () => {
    const means: Record<number, { mean: number; first: number }> = {
      1800: { mean: 95, first: 0 },
      60: { mean: 70, first: 0 },
    };
    const s = setUp(rule(), means);
    await s.pass();
    s.clock.ms += LOOK_BACK_EVERY_MS;
    await s.pass();
    // Over the clear threshold (50) in the last minute: still open, its value moved.
    expect(s.open.size).toBe(1);
    expect(s.touches.at(-1)?.value).toBe(70);
    means[60] = { mean: 40, first: 0 };
    s.clock.ms += LOOK_BACK_EVERY_MS;
    await s.pass();
    expect(s.open.size).toBe(0);
    expect(s.resolved).toHaveLength(1);
  });

  it('after a manual resolve, waits for a whole window that starts after it', async () => {
    const s = setUp(rule({ duration_seconds: 60, clear_duration_seconds: null }), {
      60: { mean: 95, first: 0 },
    });
    await s.pass();
    const [row] = [...s.open.values()];
    s.open.clear();
    s.lb.forget('r1', row?.scope ?? '');
    s.clock.ms += LOOK_BACK_EVERY_MS;
    await s.pass();
    expect(s.open.size).toBe(0);
    s.clock.ms += 60_000;
    await s.pass();
    expect(s.open.size).toBe(1);
  });

  it('raises nothing without a history port', async () => {
    const s = setUp(rule(), { 1800: { mean: 95, first: 0 } });
    const none = new LookBack(
      { now: () => T * 1000 } as unknown as EngineContext,
      undefined,
      () => ['h1'],
    );
    await none.pass([rule()], []);
    expect(s.open.size).toBe(0);
  });
});
