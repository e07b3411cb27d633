import { beforeEach, describe, expect, it } from 'vitest';
import { lastReached, noteReached } from './last-reached';

describe('last reached', () => {
  beforeEach(() => localStorage.clear());

  it('keeps when Berth last answered, written at most every 15 s', () => {
    expect(lastReached()).toBeNull();
    const t0 = Date.parse('2026-12-04T18:00:00Z');
    noteReached(t0);
    expect(lastReached()).toBe('2026-12-04T18:00:00.000Z');
    noteReached(t0 + 5_000); // within 15 s: not written again
    expect(lastReached()).toBe('2026-12-04T18:00:00.000Z');
    noteReached(t0 + 16_000);
    expect(lastReached()).toBe('2026-12-04T18:00:16.000Z');
  });

  it('reads a value that is not a time as unknown', () => {
    localStorage.setItem('berth:last-reached', 'yesterday-ish');
    expect(lastReached()).toBeNull();
  });
});
