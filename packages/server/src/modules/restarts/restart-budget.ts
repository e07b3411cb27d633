import {
  containerNameKey,
  HEALTH_RESTART_WINDOW_MAX,
  HEALTH_RESTART_WINDOW_MS,
} from '@berth/contracts';

export interface RestartWindow {
  windowMs: number;
  max: number;
}

/** At most 12 automatic restarts of one container in any 10 minutes. */
export const DEFAULT_RESTART_WINDOW: RestartWindow = {
  windowMs: HEALTH_RESTART_WINDOW_MS,
  max: HEALTH_RESTART_WINDOW_MAX,
};

/** What Berth says when a container's budget is used up. */
export const overBudgetText = (recent: number): string =>
  `${recent} restarts in the last 10 minutes (safety window)`;

/** Why the budget refuses a restart now: how many are in the window, and when one frees up. */
export interface BudgetRefusal {
  recent: number;
  retryAt: number;
}

/**
 * The safety budget of automatic restarts, one per container (by host and name, so it
 * survives a recreation): never more than `window.max` in any `window.windowMs`, whoever
 * asks (auto-restart or a health check). The clock is injected so tests can move it.
 */
export class RestartBudgets {
  /** Times of the restarts still inside the window, oldest first, per container. */
  private readonly history = new Map<string, number[]>();

  /** The limit; a test may shorten it on a running app. */
  window: RestartWindow;

  constructor(
    window: RestartWindow = DEFAULT_RESTART_WINDOW,
    private readonly now: () => number = Date.now,
  ) {
    this.window = { ...window };
  }

  /** Restarts of the container inside the window now. */
  recent(hostId: string, name: string): number {
    return this.times(containerNameKey(hostId, name)).length;
  }

  /** Null when a restart may happen now. */
  check(hostId: string, name: string): BudgetRefusal | null {
    const times = this.times(containerNameKey(hostId, name));
    if (times.length < this.window.max) return null;
    return { recent: times.length, retryAt: (times[0] ?? this.now()) + this.window.windowMs };
  }

  /** A restart was made. */
  record(hostId: string, name: string): void {
    const key = containerNameKey(hostId, name);
    const times = this.times(key);
    times.push(this.now());
    this.history.set(key, times);
  }

  private times(key: string): number[] {
    const times = this.history.get(key) ?? [];
    const cutoff = this.now() - this.window.windowMs;
    while (times.length > 0 && (times[0] ?? 0) <= cutoff) times.shift();
    if (times.length === 0) this.history.delete(key);
    return times;
  }
}
