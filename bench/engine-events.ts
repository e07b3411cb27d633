// An engine's own event stream (`docker events`) for benchmarks: when the engine says a
// container changed, the clock every latency to Berth is measured from.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Engine } from './rig.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface EngineEvents {
  /**
   * When (performance.now() clock) the engine reported `action` for container `id` (full id)
   * at or after `after`, waiting up to `timeoutMs`; null if it did not.
   */
  at: (id: string, action: string, after: number, timeoutMs?: number) => Promise<number | null>;
  close: () => void;
}

/** Container events of `engine` with label `label`, from now on. */
export function watchEngineEvents(engine: Engine, label: string): EngineEvents {
  const child = spawn(
    'docker',
    [
      '-H',
      engine.socket,
      'events',
      '--filter',
      'type=container',
      '--filter',
      `label=${label}`,
    ].concat(['--format', '{{json .}}']),
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const stopOnExit = () => child.kill();
  process.once('exit', stopOnExit);
  const seen = new Map<string, number[]>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const e = JSON.parse(line) as { Action?: string; id?: string; timeNano?: number };
    if (e.Action === undefined || e.id === undefined || e.timeNano === undefined) return;
    // The engine's wall clock, on this machine, to the bench's monotonic one (their offset
    // read now: the wall clock may have been stepped since the bench started).
    const at = e.timeNano / 1e6 - (Date.now() - performance.now());
    const key = `${e.id}:${e.Action}`;
    seen.set(key, [...(seen.get(key) ?? []), at]);
  });
  return {
    at: async (id, action, after, timeoutMs = 10_000) => {
      const started = performance.now();
      while (performance.now() - started < timeoutMs) {
        const hit = seen.get(`${id}:${action}`)?.find((t) => t >= after);
        if (hit !== undefined) return hit;
        await sleep(5);
      }
      return null;
    },
    close: () => {
      process.off('exit', stopOnExit);
      child.kill();
    },
  };
}
