import type { FastifyBaseLogger } from 'fastify';
import { AttemptWindow } from '../../platform/attempt-window.js';
import { tooManyRequests, type HttpError } from '../../platform/http-errors.js';

export interface AgentThrottleLimits {
  /** Failed enrollments and connects (in flight or failed) from one address within the window. */
  perAddress: number;
  windowMs: number;
}

/**
 * A real agent fails rarely: a reused token once, a deleted host's secret once (it exits), an
 * incompatible one a few times a minute at its 30 s backoff. A short window lets a valid agent
 * that shares the flooding address (a NAT, a proxy without BERTH_TRUST_PROXY) back within a
 * minute, while a flood gets at most 30 checks and log lines a minute.
 */
export const DEFAULT_AGENT_LIMITS: AgentThrottleLimits = { perAddress: 30, windowMs: 60_000 };

export const AGENT_ATTEMPTS_LIMITED =
  'Too many failed agent enrollments or connects from this address; retry after the time in Retry-After';

/** One reserved attempt: it counts as a failure unless released. */
export interface AgentAttempt {
  /** It did not fail on its credentials (accepted, or refused as already connected). */
  release(): void;
}

/**
 * Counts failed agent enrollments and connects per client address, like sign-in's
 * LoginThrottle, and refuses an address past the limit with a 429 before any check. Attempts
 * are reserved before any await, so a parallel burst cannot slip past the count. Agents
 * already connected are never touched: only new attempts are counted and refused.
 */
export class AgentThrottle {
  private readonly failures: AttemptWindow;
  /** When each refused address may be logged again: once per window, not once per attempt. */
  private readonly reported: AttemptWindow;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly limits: AgentThrottleLimits = DEFAULT_AGENT_LIMITS,
    now: () => number = Date.now,
  ) {
    this.failures = new AttemptWindow(limits.windowMs, now);
    this.reported = new AttemptWindow(limits.windowMs, now);
  }

  /** Reserves an attempt for `address`, or throws the 429 it is answered with. */
  begin(address: string, endpoint: 'enroll' | 'connect'): AgentAttempt {
    if (this.failures.recent(address).length >= this.limits.perAddress)
      throw this.refuse(address, endpoint);
    const at = this.failures.push(address);
    return { release: () => this.failures.release(address, at) };
  }

  private refuse(address: string, endpoint: string): HttpError {
    const retryAfterMs = this.failures.msUntilFree(address);
    if (this.reported.recent(address).length === 0) {
      this.reported.push(address);
      this.log.warn(
        {
          address,
          endpoint,
          failures: this.limits.perAddress,
          window_s: this.limits.windowMs / 1000,
        },
        'agent attempts refused: too many failures from this address',
      );
    }
    return tooManyRequests(AGENT_ATTEMPTS_LIMITED, retryAfterMs);
  }
}
