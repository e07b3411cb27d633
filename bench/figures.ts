// Small helpers for printing figures, free of the rig (benchmarks without Docker use them).
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
export const TICK_HZ = 100;

/** User and system CPU ticks of the given processes so far (a process gone counts nothing). */
export function cpuTicks(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      total += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return total;
}

/** The p-th percentile of `xs` (nearest rank). */
export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN;
export const f1 = (n: number) => n.toFixed(1);

/**
 * The machine's speed right now: milliseconds (median of 5) for a fixed piece of JavaScript
 * work on one core. This VM's speed drifts with its neighbours (bench/dashboard's first render
 * read 703 ms and 967 ms for the same build two hours apart), so benchmarks print it beside
 * their figures, and figures from runs whose speeds differ are not compared.
 */
export function machineSpeedMs(): number {
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    const rows = Array.from({ length: 50_000 }, (_, i) => ({
      id: i,
      name: `row-${(i * 7919) % 50_000}`,
    }));
    const copy = JSON.parse(JSON.stringify(rows)) as typeof rows;
    copy.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    times.push(performance.now() - start);
  }
  return pct(times, 50);
}

/**
 * Runs `work` with a 1 ms ticker beside it: the longest gap between two ticks is the longest
 * the thread was held, whatever held it (a step, the queries between steps, a collection).
 */
export async function held<T>(work: () => Promise<T>): Promise<[T, number]> {
  let last = performance.now();
  let worst = 0;
  const tick = () => {
    const t = performance.now();
    worst = Math.max(worst, t - last);
    last = t;
  };
  const ticker = setInterval(tick, 1);
  try {
    const result = await work();
    tick();
    return [result, worst];
  } finally {
    clearInterval(ticker);
  }
}
