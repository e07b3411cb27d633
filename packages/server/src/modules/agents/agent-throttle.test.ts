import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { HttpError } from '../../platform/http-errors.js';
import { AgentThrottle } from './agent-throttle.js';

/** A throttle of 3 failures a minute on a clock the test moves, and what it logged. */
function throttleAt() {
  const clock = { now: 1_000_000 };
  const warnings: Record<string, unknown>[] = [];
  const log = { warn: (fields: Record<string, unknown>) => warnings.push(fields) };
  const throttle = new AgentThrottle(
    log as unknown as FastifyBaseLogger,
    { perAddress: 3, windowMs: 60_000 },
    () => clock.now,
  );
  return { clock, warnings, throttle };
}

const refusal = (attempt: () => unknown): HttpError => {
  try {
    attempt();
  } catch (err) {
    return err as HttpError;
  }
  throw new Error('not refused');
};

describe('agent throttle', () => {
  it('refuses an address past its failures until the oldest leaves the window, saying so once', () => {
    const { clock, warnings, throttle } = throttleAt();
    throttle.begin('10.0.0.1', 'connect');
    clock.now += 10_000;
    throttle.begin('10.0.0.1', 'enroll');
    throttle.begin('10.0.0.1', 'connect');
    const first = refusal(() => throttle.begin('10.0.0.1', 'connect'));
    expect(first.statusCode).toBe(429);
    // The oldest failure was 10 s ago: it leaves the 60 s window in 50 s.
    expect(first.headers).toEqual({ 'retry-after': '50' });
    refusal(() => throttle.begin('10.0.0.1', 'enroll'));
    expect(warnings).toEqual([
      expect.objectContaining({ address: '10.0.0.1', endpoint: 'connect' }),
    ]);

    // Another address is untouched; released attempts (accepted agents) never count.
    for (let i = 0; i < 10; i++) throttle.begin('10.0.0.2', 'connect').release();
    expect(() => throttle.begin('10.0.0.2', 'connect')).not.toThrow();

    clock.now += 50_001;
    expect(() => throttle.begin('10.0.0.1', 'connect')).not.toThrow();
    // A new window past the limit is said again.
    clock.now += 60_000;
    for (let i = 0; i < 3; i++) throttle.begin('10.0.0.1', 'connect');
    refusal(() => throttle.begin('10.0.0.1', 'connect'));
    expect(warnings).toHaveLength(2);
  });
});
