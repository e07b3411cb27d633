export interface LoginThrottleLimits {
  /** Attempts (in flight or failed) allowed from one address within the window. */
  perAddress: number;
  /** Failures for one username before its attempts start to wait. */
  freePerUsername: number;
  /** The first wait; each further failure doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = {
  perAddress: 20,
  freePerUsername: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  windowMs: 15 * 60 * 1000,
};

const MAX_TRACKED_KEYS = 10_000;

/** One reserved sign-in attempt: it counts as a failure unless it is marked a success. */
export interface LoginAttempt {
  /** Resolves once this attempt may check the password (the username's growing delay). */
  wait(): Promise<void>;
  succeeded(): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Throttles password checks. An address that fails too often is refused outright; a username
 * that fails often is only slowed down, so a stranger cannot lock its owner out. Attempts are
 * reserved synchronously, before any await, so a parallel burst cannot slip past the count.
 * Unknown usernames are counted like known ones, so neither answer nor timing reveals them.
 */
export class LoginThrottle {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
    private readonly delay: (ms: number) => Promise<void> = sleep,
  ) {}

  /** Reserves an attempt, or null when the address has used up its attempts (answer 429). */
  begin(address: string, username: string): LoginAttempt | null {
    const aKey = addressKey(address);
    const uKey = userKey(username);
    if (this.recent(aKey).length >= this.limits.perAddress) return null;
    const waitMs = this.waitFor(uKey);
    const at = this.now();
    this.push(aKey, at);
    this.push(uKey, at);
    return {
      wait: () => (waitMs > 0 ? this.delay(waitMs) : Promise.resolve()),
      // The address keeps its real failures; the username starts afresh after a success.
      succeeded: () => {
        this.release(aKey, at);
        this.attempts.delete(uKey);
      },
    };
  }

  /** 0 for the first free failures, then base, 2 × base, 4 × base … capped, from the last attempt. */
  private waitFor(key: string): number {
    const recent = this.recent(key);
    const over = recent.length - this.limits.freePerUsername;
    if (over < 0) return 0;
    const step = Math.min(
      this.limits.baseDelayMs * 2 ** Math.min(over, 30),
      this.limits.maxDelayMs,
    );
    const last = recent[recent.length - 1] ?? 0;
    return Math.max(0, last + step - this.now());
  }

  private recent(key: string): number[] {
    const since = this.now() - this.limits.windowMs;
    const kept = (this.attempts.get(key) ?? []).filter((t) => t > since);
    if (kept.length === 0) this.attempts.delete(key);
    else this.attempts.set(key, kept);
    return kept;
  }

  private push(key: string, at: number): void {
    if (!this.attempts.has(key) && this.attempts.size >= MAX_TRACKED_KEYS) {
      const oldest = this.attempts.keys().next();
      if (oldest.done !== true) this.attempts.delete(oldest.value);
    }
    this.attempts.set(key, [...this.recent(key), at]);
  }

  private release(key: string, at: number): void {
    const list = this.attempts.get(key);
    const index = list?.lastIndexOf(at) ?? -1;
    if (list !== undefined && index >= 0) list.splice(index, 1);
  }
}

const userKey = (username: string) => `u:${username.trim().toLowerCase()}`;
const addressKey = (address: string) => `a:${address}`;
