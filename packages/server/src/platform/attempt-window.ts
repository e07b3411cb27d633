const MAX_TRACKED_KEYS = 10_000;

/**
 * When each key (an address, a username) last tried something, over a sliding window: what
 * sign-in and the agents' endpoints count to refuse a client that fails too often. At most
 * `maxKeys` keys are kept (the oldest goes first), so a spray of addresses cannot grow it.
 */
export class AttemptWindow {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = MAX_TRACKED_KEYS,
  ) {}

  /** The key's attempts still inside the window, oldest first. */
  recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.attempts.get(key) ?? []).filter((t) => t > since);
    if (kept.length === 0) this.attempts.delete(key);
    else this.attempts.set(key, kept);
    return kept;
  }

  /** Records an attempt at `at` (now unless told); returns its time, to release it later. */
  push(key: string, at = this.now()): number {
    if (!this.attempts.has(key) && this.attempts.size >= this.maxKeys) {
      const oldest = this.attempts.keys().next();
      if (oldest.done !== true) this.attempts.delete(oldest.value);
    }
    this.attempts.set(key, [...this.recent(key), at]);
    return at;
  }

  /** Takes back one attempt (it did not count after all: it succeeded). */
  release(key: string, at: number): void {
    const list = this.attempts.get(key);
    const index = list?.lastIndexOf(at) ?? -1;
    if (list !== undefined && index >= 0) list.splice(index, 1);
  }

  forget(key: string): void {
    this.attempts.delete(key);
  }

  /** How long until the key's oldest attempt leaves the window (and one more is allowed). */
  msUntilFree(key: string): number {
    const oldest = this.recent(key)[0];
    return oldest === undefined ? 0 : Math.max(0, oldest + this.windowMs - this.now());
  }
}
