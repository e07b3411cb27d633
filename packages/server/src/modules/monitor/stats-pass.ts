import { setTimeout as sleep } from 'node:timers/promises';

/** A stats pass over many engines is spread over at most this share of the polling interval. */
const SPREAD_SHARE = 0.5;
/** …and its engines start at most this far apart, so a few engines are not held back for nothing. */
const MAX_STEP_MS = 20;

/**
 * The delay between two engines' starts in one stats pass. Fifty engines read at once (a
 * thousand one-shot stats answers in the same few turns of the event loop) stalled it for
 * 100–350 ms every tick in bench/dashboard, holding every API answer of a page being loaded
 * behind them; started 20 ms apart, no turn holds more than one engine's reads.
 */
export function statsPassStep(engines: number, intervalMs: number): number {
  return engines <= 1 ? 0 : Math.min(MAX_STEP_MS, (intervalMs * SPREAD_SHARE) / engines);
}

/**
 * Runs `pass` for each item, the i-th starting `i × stepMs` after the first, and resolves when
 * all have ended. An item is skipped once `going()` turns false (the monitor stopped). `pass`
 * handles its own failures.
 */
export async function spreadPasses<T>(
  items: readonly T[],
  stepMs: number,
  going: () => boolean,
  pass: (item: T) => Promise<void>,
): Promise<void> {
  await Promise.all(
    items.map(async (item, i) => {
      // Unreferenced: a pass still waiting must not keep a stopping process alive.
      if (i > 0 && stepMs > 0) await sleep(i * stepMs, undefined, { ref: false });
      if (going()) await pass(item);
    }),
  );
}
