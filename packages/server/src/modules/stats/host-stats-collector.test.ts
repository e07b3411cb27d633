import type { Engine } from '../../docker/index.js';
import { describe, expect, it } from 'vitest';
import { HostStatsCollector, type StatsTarget } from './host-stats-collector.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An engine whose stats reads are counted, and answered when the test says so. */
function countingEngine() {
  let started = 0;
  const pending: (() => void)[] = [];
  const answer = { read: new Date().toISOString(), memory_stats: { usage: 1, limit: 2 } };
  const fake: Pick<Engine, 'containerStats'> = {
    containerStats: () => {
      started++;
      return new Promise((resolve) => pending.push(() => resolve(answer)));
    },
  };
  return {
    engine: fake as Engine,
    started: () => started,
    answerAll: () => pending.splice(0).forEach((f) => f()),
  };
}

const targets = (n: number): StatsTarget[] =>
  Array.from({ length: n }, (_, i) => ({ id: `c${i}`, fullId: `c${i}`, pid: 0 }));

describe('HostStatsCollector over the Engine API', () => {
  it('starts its concurrent reads one turn of the event loop apart, and reads every target', async () => {
    const engine = countingEngine();
    const collector = new HostStatsCollector('api', () => 1024);
    const pass = collector.collect(engine.engine, targets(40));
    // Every engine's pass starts in the same turn: starting all sixteen reads at once, fifty
    // engines held the server's requests for ~220 ms.
    const startedByTurn: number[] = [];
    for (let turn = 0; turn < 40; turn++) {
      startedByTurn.push(engine.started());
      await nextTurn();
    }
    const mostInOneTurn = Math.max(...startedByTurn.map((n, i) => n - (startedByTurn[i - 1] ?? 0)));
    expect(mostInOneTurn).toBe(1);
    expect(engine.started()).toBe(16); // the concurrency per engine
    while (engine.started() < 40) {
      engine.answerAll();
      await nextTurn();
    }
    engine.answerAll();
    await expect(pass).resolves.toEqual({ failed: 0 });
    expect(collector.statsOf('c39')).toBeDefined();
  });
});

describe("HostStatsCollector with the host's agent reading files", () => {
  const sample = (cpuMs: number, atMs: number) => ({
    atNs: BigInt(atMs) * 1_000_000n,
    cpuNs: BigInt(cpuMs) * 1_000_000n,
    memoryBytes: 100,
    memoryLimit: 1000,
    rxBytes: 0,
    txBytes: 0,
  });

  it("takes the agent's samples and asks the API only for what it left out, or for all when it fails", async () => {
    const engine = countingEngine();
    let at = 0;
    let failing = false;
    const collector = new HostStatsCollector(
      'auto',
      () => 1024,
      () => () => {
        if (failing) return Promise.reject(new Error('The agent is not connected'));
        at += 1000;
        return Promise.resolve(new Map([['c0', sample(at / 2, at)]]));
      },
    );
    const pass = async () => {
      const state = { done: false };
      const running = collector
        .collect(engine.engine, targets(2))
        .finally(() => (state.done = true));
      while (!state.done) {
        engine.answerAll();
        await nextTurn();
      }
      return running;
    };
    await expect(pass()).resolves.toEqual({ failed: 0 });
    expect(collector.sourceOf('c0')).toBe('agent');
    expect(collector.sourceOf('c1')).toBe('api');
    expect(engine.started()).toBe(1);
    await pass();
    expect(collector.statsOf('c0')?.cpu_percent).toBe(50); // Δcpu / Δwall of the agent's clock
    failing = true;
    await pass();
    expect(collector.sourceOf('c0')).toBe('api');
    expect(collector.statsOf('c0')?.cpu_percent).toBe(0); // no rate across two sources
  });
});
