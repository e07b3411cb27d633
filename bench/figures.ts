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
