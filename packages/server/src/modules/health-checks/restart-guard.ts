/** Why a health-check restart may not happen now; null when it may. */
export type RestartRefusal = { reason: 'episode_cap'; attempts: number } | null;

/**
 * A health check's restart count for one container: at most `maxAttempts` restarts per
 * unhealthy episode, reset on recovery. The safety window over all automatic restarts of
 * the container is the restarts module's budget, shared with auto-restart.
 */
export class RestartGuard {
  private attempts = 0;

  get episodeAttempts(): number {
    return this.attempts;
  }

  check(maxAttempts: number): RestartRefusal {
    if (this.attempts >= maxAttempts) return { reason: 'episode_cap', attempts: this.attempts };
    return null;
  }

  /** A restart was made. */
  record(): void {
    this.attempts++;
  }

  /** The container recovered: the next unhealthy episode starts with a full budget. */
  resetEpisode(): void {
    this.attempts = 0;
  }
}
