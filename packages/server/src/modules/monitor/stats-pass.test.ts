import { describe, expect, it } from 'vitest';
import { spreadPasses, statsPassStep } from './stats-pass.js';

describe('stats pass spread', () => {
  it('starts engines 20 ms apart, within half the interval, and one engine at once', () => {
    expect(statsPassStep(1, 2000)).toBe(0);
    expect(statsPassStep(5, 2000)).toBe(20);
    expect(statsPassStep(50, 2000)).toBe(20);
    expect(statsPassStep(200, 2000)).toBe(5);
    expect(statsPassStep(50, 1000)).toBe(10);
  });

  it('starts the i-th pass i steps after the first and resolves when the last has ended', async () => {
    const t0 = performance.now();
    const started: number[] = [];
    const ended: number[] = [];
    await spreadPasses(
      [0, 1, 2, 3],
      30,
      () => true,
      async (i) => {
        started[i] = performance.now() - t0;
        await new Promise((resolve) => setTimeout(resolve, 5));
        ended.push(i);
      },
    );
    expect(ended).toHaveLength(4);
    // Timers fire no earlier than asked (a millisecond of rounding aside).
    for (let i = 1; i < 4; i++) expect(started[i]).toBeGreaterThanOrEqual(i * 30 - 1);
    expect(started[0]).toBeLessThan(30);
  });

  it('skips the passes not yet started once the monitor stops', async () => {
    const ran: number[] = [];
    let going = true;
    await spreadPasses(
      [0, 1, 2],
      20,
      () => going,
      (i) => {
        ran.push(i);
        going = false;
        return Promise.resolve();
      },
    );
    expect(ran).toEqual([0]);
  });
});
