import { setTimeout as sleep } from 'node:timers/promises';
import { Cron } from 'croner';

/** Deletes at most `limit` rows; answers how many went. */
type DeleteChunk = (limit: number) => Promise<number>;

/** What retention needs from the modules that own the data (through their index). */
export interface RetentionDeps {
  settings: {
    get(): {
      event_retention_days: number;
      alert_retention_days: number;
      unused_tag_retention_days: number;
    };
  };
  events: {
    pruneOlderThan(cutoff: string, limit: number): Promise<number>;
    pauseIndexMerging(): Promise<void>;
    resumeIndexMerging(): Promise<void>;
    mergeIndexStep(pages: number): Promise<boolean>;
  };
  batch: { pruneOlderThan(cutoff: string, limit: number): Promise<number> };
  alerts: { pruneResolvedBefore(cutoff: string, limit: number): Promise<number> };
  auth: { pruneExpiredSessions(limit: number): Promise<number> };
  containerSettings: { pruneUnusedTags(cutoff: string): Promise<number> };
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  now?: () => number;
}

export interface RetentionReport {
  events: number;
  batch: number;
  alerts: number;
  sessions: number;
  /** Containers whose tags went because nobody had seen them for the retention period. */
  untagged: number;
  /** The longest time one delete held the thread, in ms. */
  longestChunkMs: number;
}

const DAY_MS = 86_400_000;
/**
 * Aim for short steps: every delete and every index merge step is sized from how long the
 * last one took, toward this many milliseconds of holding the thread.
 */
const TARGET_STEP_MS = 8;
const MIN_CHUNK = 50;
const MAX_CHUNK = 20_000;
const FIRST_CHUNK = 500;
/**
 * Index pages per merge step: a page of the trigram index costs about 0.3 ms to merge, so a
 * step starts at ~10 ms and is sized like the deletes from then on.
 */
const MIN_MERGE_PAGES = 8;
const MAX_MERGE_PAGES = 64;
const FIRST_MERGE_PAGES = 32;
/**
 * After each step retention rests as long as the step took (up to this), so it uses at
 * most half of the thread and requests in between never queue behind a run of steps.
 */
const MAX_REST_MS = 50;
/** The nightly run: 03:00 local time, when a home server is quiet. */
const NIGHTLY = '0 3 * * *';

/**
 * Applies the retention settings at start and then nightly: old events, old finished batch
 * jobs, resolved alerts past their own retention, expired sessions and the tags of containers
 * nobody has seen for the unused-tag period. 0 days keeps forever.
 * Deletes go in small chunks sized from how long the last one took, yielding between them,
 * so a backlog of a million rows never holds the server for long.
 */
export class RetentionService {
  private job: Cron | null = null;
  private running: Promise<RetentionReport> | null = null;
  private stopped = false;
  private chunk = FIRST_CHUNK;
  private mergePages = FIRST_MERGE_PAGES;
  private readonly now: () => number;

  constructor(private readonly deps: RetentionDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Runs now (in the background) and then every night. */
  start(): void {
    this.stopped = false;
    this.job?.stop();
    this.job = new Cron(NIGHTLY, { protect: true, unref: true }, () => this.runLogged());
    this.job.trigger().catch(() => undefined); // runLogged logs its own failures
  }

  stop(): void {
    this.stopped = true;
    this.job?.stop();
    this.job = null;
  }

  /** The nightly run after `after` (default now); null when stopped. */
  nextRun(after?: Date): Date | null {
    return this.job?.nextRun(after) ?? null;
  }

  /** One pass; a pass already under way is joined rather than doubled. */
  runOnce(): Promise<RetentionReport> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private runLogged(): Promise<void> {
    return this.runOnce().then(
      (report) => this.deps.log.info({ retention: report }, 'retention pass done'),
      (error: unknown) => this.deps.log.error({ err: error }, 'retention pass failed'),
    );
  }

  private async pass(): Promise<RetentionReport> {
    const {
      event_retention_days: eventDays,
      alert_retention_days: alertDays,
      unused_tag_retention_days: tagDays,
    } = this.deps.settings.get();
    const report = { events: 0, batch: 0, alerts: 0, sessions: 0, untagged: 0, longestChunkMs: 0 };
    const cutoff = (days: number) => new Date(this.now() - days * DAY_MS).toISOString();
    if (eventDays > 0) {
      const before = cutoff(eventDays);
      report.events = await this.pruneEvents(before, report);
      report.batch = await this.drain((n) => this.deps.batch.pruneOlderThan(before, n), report);
    }
    if (alertDays > 0) {
      const before = cutoff(alertDays);
      report.alerts = await this.drain(
        (n) => this.deps.alerts.pruneResolvedBefore(before, n),
        report,
      );
    }
    report.sessions = await this.drain((n) => this.deps.auth.pruneExpiredSessions(n), report);
    // Run even at 0 days: it also marks which containers were seen, so a later change of the
    // setting counts from real sightings.
    report.untagged = await this.deps.containerSettings.pruneUnusedTags(
      tagDays > 0 ? cutoff(tagDays) : '',
    );
    return report;
  }

  /**
   * Old events with the index's own merging paused, merged instead in bounded steps after
   * every chunk. Left to itself, FTS5 merges a level whole once it holds 16 segments (a
   * "crisis merge"): every 16th chunk's delete took ~45 ms and every 256th 250-400 ms
   * (bench/retention). Merging as soon as a level holds a few segments keeps every level
   * short of that, each step bounded in pages.
   */
  private async pruneEvents(before: string, report: RetentionReport): Promise<number> {
    const { events } = this.deps;
    await events.pauseIndexMerging();
    try {
      return await this.drain(
        (n) => events.pruneOlderThan(before, n),
        report,
        () => this.mergeIndex(report),
      );
    } finally {
      await events.resumeIndexMerging();
    }
  }

  /** Merge steps, resting after each, until the index has nothing it needs to merge. */
  private async mergeIndex(report: RetentionReport): Promise<void> {
    while (!this.stopped) {
      const [merged, took] = await timed(
        () => this.deps.events.mergeIndexStep(this.mergePages),
        report,
      );
      if (!merged) return;
      this.mergePages = nextStepSize(this.mergePages, true, took, MIN_MERGE_PAGES, MAX_MERGE_PAGES);
      await rest(took);
    }
  }

  /**
   * Deletes chunk by chunk until nothing is left (or retention stops), running `afterChunk`
   * after each; answers the count.
   */
  private async drain(
    deleteChunk: DeleteChunk,
    report: RetentionReport,
    afterChunk?: () => Promise<void>,
  ): Promise<number> {
    let total = 0;
    while (!this.stopped) {
      const [removed, took] = await timed(() => deleteChunk(this.chunk), report);
      total += removed;
      if (removed === 0) break;
      this.chunk = nextStepSize(this.chunk, removed >= this.chunk, took, MIN_CHUNK, MAX_CHUNK);
      await rest(took);
      await afterChunk?.();
    }
    return total;
  }
}

/** Runs one bounded step; answers its result and how long it held the thread. */
async function timed<T>(step: () => Promise<T>, report: RetentionReport): Promise<[T, number]> {
  const started = performance.now();
  const result = await step();
  const took = performance.now() - started;
  report.longestChunkMs = Math.max(report.longestChunkMs, took);
  return [result, took];
}

const rest = (tookMs: number) => sleep(Math.min(MAX_REST_MS, Math.max(1, tookMs)));

/**
 * Scales a step (rows to delete, pages to merge) toward the target time; grows only after a
 * step that had a full size's work to do.
 */
export function nextStepSize(
  size: number,
  wasFull: boolean,
  tookMs: number,
  min: number,
  max: number,
): number {
  if (tookMs > TARGET_STEP_MS) return Math.max(min, Math.floor((size * TARGET_STEP_MS) / tookMs));
  if (wasFull && tookMs < TARGET_STEP_MS / 2) return Math.min(max, size * 2);
  return size;
}
