import type { Container } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import { clearlyUnasked, type FreshLook } from './stop-intent.js';

// The cases a die can come from, with the kill events and exit code each leaves; only the
// ones no user's stop can produce are decided at once (the rest wait for a `stop` event).
const info = (exit_code: number | null, restart_policy: string | null = 'no') =>
  ({ exit_code, restart_policy }) as Container;
const exited: FreshLook = { status: 'exited', autoRemove: false, stopSignal: null };

describe('a die decided without waiting for a stop event', () => {
  it('a crash or an exit of its own (no kill before) and a docker kill (one SIGKILL) are clear', () => {
    expect(clearlyUnasked(0, info(1), exited)).toBe(true);
    expect(clearlyUnasked(0, info(0), exited)).toBe(true);
    expect(clearlyUnasked(0, info(137), exited)).toBe(true); // the OOM killer
    expect(clearlyUnasked(1, info(137), exited)).toBe(true);
  });

  it('what a user stop may look like waits: a graceful stop, a stop that timed out, a kill -s TERM', () => {
    expect(clearlyUnasked(1, info(0), exited)).toBe(false);
    expect(clearlyUnasked(1, info(143), exited)).toBe(false);
    expect(clearlyUnasked(2, info(137), exited)).toBe(false);
  });

  it('a container whose own stop signal is SIGKILL waits, in every spelling', () => {
    for (const stopSignal of ['SIGKILL', 'KILL', '9', 'sigkill'])
      expect(clearlyUnasked(1, info(137), { ...exited, stopSignal })).toBe(false);
    expect(clearlyUnasked(1, info(137), { ...exited, stopSignal: 'SIGTERM' })).toBe(true);
  });

  it('a removal (rm -f, --rm) and a container the engine restarts itself wait', () => {
    expect(clearlyUnasked(1, info(137), { ...exited, status: 'removing' })).toBe(false);
    expect(clearlyUnasked(1, info(137), { ...exited, status: 'dead' })).toBe(false);
    expect(clearlyUnasked(0, info(1), { ...exited, autoRemove: true })).toBe(false);
    expect(clearlyUnasked(0, info(1), { ...exited, status: 'running' })).toBe(false);
    expect(clearlyUnasked(1, info(137, 'always'), exited)).toBe(false);
    expect(clearlyUnasked(0, info(1, 'on-failure'), exited)).toBe(false);
    expect(clearlyUnasked(0, info(1, null), exited)).toBe(true);
  });
});
