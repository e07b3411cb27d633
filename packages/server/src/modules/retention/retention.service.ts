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
      /** Absent: the audit log's default, a year. */
      audit_retention_days?: number;
    };
  };
  events: {
    pruneOlderThan(cutoff: string, limit: number): Promise<number>;
    rollIndexIfFull(): Promise<boolean>;
    dropEmptyIndexPartition(): Promise<boolean>;
  };
  batch: { pruneOlderThan(cutoff: string, limit: number): Promise<number> };
  alerts: { pruneResolvedBefore(cutoff: string, limit: number): Promise<number> };
  auth: { pruneExpiredSessions(limit: number): Promise<number> };
  containerSettings: { pruneUnusedTags(cutoff: string): Promise<number> };
  /** The audit log (absent where a caller has none, as in bench/retention). */
  audit?: { pruneOlderThan(cutoff: string, limit: number): Promise<number> };
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  now?: () => number;
}

export interface RetentionReport {
  events: number;
  batch: number;
  alerts: number;
  sessions: number;
  audit: number;
  /** Containers whose tags went because nobody had seen them for the retention period. */
  untagged: number;
  /** The longest time one delete (or dropped index partition) held the thread, in ms. */
  longestChunkMs: number;
}

const DAY_MS = 86_400_000;
/**
 * Aim for short steps: every delete is sized from how long the last one took, toward this
 * many milliseconds of holding the thread.
 */
const TARGET_STEP_MS = 8;
const MIN_CHUNK = 50;
const MAX_CHUNK = 20_000;
const FIRST_CHUNK = 500;
/**
 * After each step retention rests as long as the step took (up to this), so it uses at
 * most half of the thread and requests in between never queue behind a run of steps.
 */
const MAX_REST_MS = 50;
/** The nightly run: 03:00 local time, when a home server is quiet. */
const NIGHTLY = '0 3 * * *';

/**
 * Applies the retention settings at start and then nightly: old events, old finished batch
 * jobs, resolved alerts past their own retention, expired sessions, audit rows past theirs
 * and the tags of containers nobody has seen for the unused-tag period. 0 days keeps forever.
 * Deletes go in small chunks sized from how long the last one took, yielding between them,
 * so a backlog of a million rows never holds the server for long.
 */
export class RetentionService {
  private job: Cron | null = null;
  private running: Promise<RetentionReport> | null = null;
  private stopped = false;
  private chunk = FIRST_CHUNK;
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
      audit_retention_days: auditDays = 365,
    } = this.deps.settings.get();
    const report: RetentionReport = {
      events: 0,
      batch: 0,
      alerts: 0,
      sessions: 0,
      audit: 0,
      untagged: 0,
      longestChunkMs: 0,
    };
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
    const { audit } = this.deps;
    if (audit !== undefined && auditDays > 0) {
      const before = cutoff(auditDays);
      report.audit = await this.drain((n) => audit.pruneOlderThan(before, n), report);
    }
    // Run even at 0 days: it also marks which containers were seen, so a later change of the
    // setting counts from real sightings.
    report.untagged = await this.deps.containerSettings.pruneUnusedTags(
      tagDays > 0 ? cutoff(tagDays) : '',
    );
    return report;
  }

  /**
   * Old events, then the search index's partitions none of whose events is left, one drop
   * per step. Nothing is deleted from an index: deleting from a large one stalled on
   * merging its segments (ADR 011).
   */
  private async pruneEvents(before: string, report: RetentionReport): Promise<number> {
    const { events } = this.deps;
    // A full partition ends before it ages, so that it can go whole.
    await events.rollIndexIfFull();
    const removed = await this.drain((n) => events.pruneOlderThan(before, n), report);
    while (!this.stopped) {
      const [dropped, took] = await timed(() => events.dropEmptyIndexPartition(), report);
      if (!dropped) break;
      await rest(took);
    }
    return removed;
  }

  /**
   * Deletes chunk by chunk until nothing is left (or retention stops); answers the count.
   */
  private async drain(deleteChunk: DeleteChunk, report: RetentionReport): Promise<number> {
    let total = 0;
    while (!this.stopped) {
      const [removed, took] = await timed(() => deleteChunk(this.chunk), report);
      total += removed;
      if (removed === 0) break;
      this.chunk = nextStepSize(this.chunk, removed >= this.chunk, took, MIN_CHUNK, MAX_CHUNK);
      await rest(took);
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
 * Scales a step (rows to delete) toward the target time; grows only after a
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
