import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installGracefulStop } from './graceful-stop.js';

/** installGracefulStop on a stand-in process: which exit code, when, and what it logs. */
function harness(stop: () => Promise<void>, deadlineMs = 10_000) {
  const target = new EventEmitter();
  const lines: string[] = [];
  const exits: number[] = [];
  const logger = {
    info: (_o: object, msg: string) => lines.push(`info ${msg}`),
    warn: (_o: object, msg: string) => lines.push(`warn ${msg}`),
    error: (_o: object, msg: string) => lines.push(`error ${msg}`),
  };
  const remove = installGracefulStop({
    stop,
    logger,
    target,
    exit: (code) => exits.push(code),
    deadlineMs,
  });
  return { target, lines, exits, remove };
}
const never = () => new Promise<void>(() => undefined);
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('the graceful stop', () => {
  it('exits 0 once the stop is done, with a line at its start and one with its time', async () => {
    const h = harness(() => Promise.resolve());
    h.target.emit('SIGINT');
    await tick();
    expect(h.exits).toEqual([0]);
    expect(h.lines[0]).toMatch(/^info stopping on SIGINT: no new connections/);
    expect(h.lines[1]).toMatch(/^info stopped cleanly in \d+ ms$/);
  });

  it('exits at once with 128 + the signal number on a second signal', () => {
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      const h = harness(never);
      h.target.emit('SIGTERM');
      h.target.emit(signal);
      expect(h.exits).toEqual([code]);
      expect(h.lines.at(-1)).toBe(
        `warn second ${signal}: exiting at once without finishing the stop`,
      );
      h.remove();
    }
  });

  it('exits 1 when the stop is still running at the deadline, or fails', async () => {
    const stuck = harness(never, 20);
    stuck.target.emit('SIGTERM');
    await tick(40);
    expect(stuck.exits).toEqual([1]);
    expect(stuck.lines.at(-1)).toBe('error the stop did not finish within 0.02 s: exiting at once');
    const failing = harness(() => Promise.reject(new Error('boom')));
    failing.target.emit('SIGTERM');
    await tick();
    expect(failing.exits).toEqual([1]);
    expect(failing.lines.at(-1)).toBe('error the stop failed');
  });
});
