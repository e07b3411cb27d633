// Small helpers for printing figures, free of the rig (benchmarks without Docker use them).

/** The p-th percentile of `xs` (nearest rank). */
export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN;
export const f1 = (n: number) => n.toFixed(1);
