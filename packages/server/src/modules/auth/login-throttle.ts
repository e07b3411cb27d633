export interface LoginThrottleLimits {
  /** Failures allowed for one username within the window. */
  perUsername: number;
  /** Failures allowed from one address within the window. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = {
  perUsername: 5,
  perAddress: 20,
  windowMs: 15 * 60 * 1000,
};

const MAX_TRACKED_KEYS = 10_000;

/**
 * Counts failed sign-ins per username and per address in a sliding window.
 * Unknown usernames are counted like known ones, so a 429 reveals nothing.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  isBlocked(address: string, username: string): boolean {
    return (
      this.count(userKey(username)) >= this.limits.perUsername ||
      this.count(addressKey(address)) >= this.limits.perAddress
    );
  }

  recordFailure(address: string, username: string): void {
    this.push(userKey(username));
    this.push(addressKey(address));
  }

  /** A successful sign-in clears the username's failures (the address keeps its count). */
  recordSuccess(username: string): void {
    this.failures.delete(userKey(username));
  }

  private count(key: string): number {
    const recent = this.recent(key);
    if (recent.length === 0) this.failures.delete(key);
    else this.failures.set(key, recent);
    return recent.length;
  }

  private recent(key: string): number[] {
    const since = this.now() - this.limits.windowMs;
    return (this.failures.get(key) ?? []).filter((t) => t > since);
  }

  private push(key: string): void {
    if (!this.failures.has(key) && this.failures.size >= MAX_TRACKED_KEYS) {
      const oldest = this.failures.keys().next();
      if (oldest.done !== true) this.failures.delete(oldest.value);
    }
    this.failures.set(key, [...this.recent(key), this.now()]);
  }
}

const userKey = (username: string) => `u:${username.trim().toLowerCase()}`;
const addressKey = (address: string) => `a:${address}`;
