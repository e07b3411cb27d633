import { HEALTH_RESTART_WINDOW_MAX, HEALTH_RESTART_WINDOW_MS } from '@berth/contracts';

export interface RestartWindow {
  windowMs: number;
  max: number;
}

export const DEFAULT_RESTART_WINDOW: RestartWindow = {
  windowMs: HEALTH_RESTART_WINDOW_MS,
  max: HEALTH_RESTART_WINDOW_MAX,
};

/** Why a restart may not happen now; null when it may. */
export type RestartRefusal =
  | { reason: 'episode_cap'; attempts: number }
  | { reason: 'safety_window'; recent: number; retryAt: number }
  | null;

/**
 * The restart budget of one container: at most `maxAttempts` restarts per
 * unhealthy episode (reset on recovery), and never more than `window.max` restarts in any
 * `window.windowMs`, whatever the episodes. The clock is injected so tests can move it.
 */
export class RestartGuard {
  private attempts = 0;
  /** Times of the restarts still inside the window, oldest first. */
  private readonly history: number[] = [];

  constructor(
    private readonly window: RestartWindow = DEFAULT_RESTART_WINDOW,
    private readonly now: () => number = Date.now,
  ) {}

  get episodeAttempts(): number {
    return this.attempts;
  }

  /** Restarts inside the window now. */
  recent(): number {
    const cutoff = this.now() - this.window.windowMs;
    while (this.history.length > 0 && (this.history[0] ?? 0) <= cutoff) this.history.shift();
    return this.history.length;
  }

  check(maxAttempts: number): RestartRefusal {
    if (this.attempts >= maxAttempts) return { reason: 'episode_cap', attempts: this.attempts };
    const recent = this.recent();
    if (recent >= this.window.max)
      return {
        reason: 'safety_window',
        recent,
        retryAt: (this.history[0] ?? this.now()) + this.window.windowMs,
      };
    return null;
  }

  /** A restart was made. */
  record(): void {
    this.attempts++;
    this.history.push(this.now());
  }

  /** The container recovered: the next unhealthy episode starts with a full budget. */
  resetEpisode(): void {
    this.attempts = 0;
  }
}
