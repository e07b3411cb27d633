import { AttemptWindow } from '../../platform/attempt-window.js';

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

/** One reserved sign-in attempt: it counts as a failure unless it is marked a success. */
export interface LoginAttempt {
  /** Resolves once this attempt may check the password (the username's growing delay). */
  wait(): Promise<void>;
  succeeded(): void;
  /**
   * Neither a success nor a failure: the password was right but a second factor is still due.
   * It must not count (the web asks for the code in a second request), nor reset the
   * username's failures (or a caller could alternate it with wrong codes to guess at speed).
   */
  abandoned(): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Throttles password checks. An address that fails too often is refused outright; a username
 * that fails often is only slowed down, so a stranger cannot lock its owner out. Attempts are
 * reserved synchronously, before any await, so a parallel burst cannot slip past the count.
 * Unknown usernames are counted like known ones, so neither answer nor timing reveals them.
 */
export class LoginThrottle {
  private readonly attempts: AttemptWindow;

  constructor(
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
    private readonly delay: (ms: number) => Promise<void> = sleep,
  ) {
    this.attempts = new AttemptWindow(limits.windowMs, now);
  }

  /** Reserves an attempt, or null when the address has used up its attempts (answer 429). */
  begin(address: string, username: string): LoginAttempt | null {
    const aKey = addressKey(address);
    const uKey = userKey(username);
    if (this.attempts.recent(aKey).length >= this.limits.perAddress) return null;
    const waitMs = this.waitFor(uKey);
    const at = this.attempts.push(aKey);
    this.attempts.push(uKey, at);
    return {
      wait: () => (waitMs > 0 ? this.delay(waitMs) : Promise.resolve()),
      // The address keeps its real failures; the username starts afresh after a success.
      succeeded: () => {
        this.attempts.release(aKey, at);
        this.attempts.forget(uKey);
      },
      abandoned: () => {
        this.attempts.release(aKey, at);
        this.attempts.release(uKey, at);
      },
    };
  }

  /** 0 for the first free failures, then base, 2 × base, 4 × base … capped, from the last attempt. */
  private waitFor(key: string): number {
    const recent = this.attempts.recent(key);
    const over = recent.length - this.limits.freePerUsername;
    if (over < 0) return 0;
    const step = Math.min(
      this.limits.baseDelayMs * 2 ** Math.min(over, 30),
      this.limits.maxDelayMs,
    );
    const last = recent[recent.length - 1] ?? 0;
    return Math.max(0, last + step - this.now());
  }
}

const userKey = (username: string) => `u:${username.trim().toLowerCase()}`;
const addressKey = (address: string) => `a:${address}`;
