import type { AuditEntry, AuditFilter, AuditQuery, AuditResponse } from '@berth/contracts';
import type { AuditRow, AuditStore, NewAuditRow } from './audit.store.js';

/** What a module tells the audit log; omitted fields are unknown. */
export type AuditRecord = Pick<NewAuditRow, 'actor' | 'action' | 'source'> &
  Partial<Omit<NewAuditRow, 'id' | 'ok' | 'actor' | 'action' | 'source'>> & {
    /** Absent: ok when there is no error and the status (if any) is below 400. */
    ok?: boolean;
  };

/** Names of hosts and containers, read from what the monitor holds (no engine calls). */
export interface AuditNames {
  hostName(hostId: string): string | undefined;
  containerName(hostId: string, containerId: string): string | undefined;
  /**
   * What the log calls a user or session the path names by id (`user alice` for `users 4`),
   * read as the request arrives, before a deletion; null keeps the id.
   */
  targetName?(collection: string, id: string): Promise<string | null>;
}

export interface AuditDeps {
  store: AuditStore;
  names: AuditNames;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  now?: () => number;
}

/** Rows waiting longer than this are written, whatever their number. */
const FLUSH_AFTER_MS = 250;
/** A queue this long is written at once. */
const FLUSH_ROWS = 200;
/**
 * The queue's bound: past it (the database stalled for a long time) the oldest rows go,
 * counted in the log, rather than the server's memory.
 */
const MAX_QUEUED = 20_000;
/** Free text is capped so a caller cannot grow a row at will. */
export const TEXT_CAP = 500;
const NAME_CAP = 200;

const cap = (text: string | null | undefined, n: number) =>
  text === null || text === undefined ? null : text.slice(0, n);

/**
 * The audit log: rows are queued and written in batches off the request path, so a request
 * never waits on SQLite for its own audit row; `flush` (and close) write what is queued.
 */
export class AuditService {
  private queue: NewAuditRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;
  private readonly now: () => number;

  constructor(private readonly deps: AuditDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Where host and container names come from. */
  get names(): AuditNames {
    return this.deps.names;
  }

  /** Queues one row; never throws and never waits. */
  record(entry: AuditRecord): void {
    const hostId = entry.host_id ?? null;
    const containerId = entry.container_id ?? null;
    const names = this.deps.names;
    const hostName =
      entry.host_name ?? (hostId === null ? undefined : names.hostName(hostId)) ?? null;
    const containerName =
      entry.container_name ??
      (hostId === null || containerId === null
        ? undefined
        : names.containerName(hostId, containerId)) ??
      null;
    const { actor, apiKey } = splitActor(entry.actor ?? null, entry.api_key);
    const error = cap(entry.error, TEXT_CAP);
    const status = entry.status ?? null;
    this.queue.push({
      at: entry.at ?? this.now(),
      actor: cap(actor, NAME_CAP),
      api_key: cap(apiKey, NAME_CAP),
      source: entry.source,
      action: entry.action.slice(0, NAME_CAP),
      host_id: cap(hostId, NAME_CAP),
      host_name: cap(hostName, NAME_CAP),
      container_id: cap(containerId, NAME_CAP),
      container_name: cap(containerName, NAME_CAP),
      target: cap(entry.target, NAME_CAP),
      address: cap(entry.address, NAME_CAP),
      user_agent: cap(entry.user_agent, TEXT_CAP),
      status,
      ok: (entry.ok ?? (error === null && (status === null || status < 400))) ? 1 : 0,
      error,
      duration_ms: entry.duration_ms === undefined ? null : entry.duration_ms,
    });
    if (this.queue.length > MAX_QUEUED) {
      this.dropped += this.queue.length - MAX_QUEUED;
      this.queue.splice(0, this.queue.length - MAX_QUEUED);
    }
    if (this.queue.length >= FLUSH_ROWS) this.flushSoon(0);
    else this.flushSoon(FLUSH_AFTER_MS);
  }

  /** Writes every queued row; resolves when they (and any write under way) are stored. */
  flush(): Promise<void> {
    this.clearTimer();
    const rows = this.queue;
    this.queue = [];
    if (rows.length === 0) return this.writing;
    this.writing = this.writing.then(() => this.write(rows));
    return this.writing;
  }

  /** On shutdown: what is queued is written before the database closes. */
  close(): Promise<void> {
    return this.flush();
  }

  async query(q: AuditQuery): Promise<AuditResponse> {
    await this.flush();
    const [rows, total] = await Promise.all([
      this.deps.store.page(q, q.limit, q.offset),
      this.deps.store.count(q),
    ]);
    return { entries: rows.map(toEntry), total_count: total, limit: q.limit, offset: q.offset };
  }

  /** Rows for the export, newest first, `pageSize` at a time, at most `max` in all. */
  async *export(f: AuditFilter, max: number, pageSize = 1000): AsyncGenerator<AuditEntry[]> {
    await this.flush();
    let before = Number.MAX_SAFE_INTEGER;
    let left = max;
    while (left > 0) {
      const rows = await this.deps.store.after(f, before, Math.min(pageSize, left));
      if (rows.length === 0) return;
      yield rows.map(toEntry);
      left -= rows.length;
      before = rows.at(-1)?.id ?? 0;
    }
  }

  /** For retention: deletes at most `limit` rows older than the ISO `cutoff`. */
  pruneOlderThan(cutoff: string, limit: number): Promise<number> {
    return this.deps.store.pruneOlderThan(Date.parse(cutoff), limit);
  }

  private flushSoon(delayMs: number): void {
    if (delayMs === 0) {
      this.flush().catch(() => undefined); // write() logs its own failures
      return;
    }
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch(() => undefined);
    }, delayMs);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private async write(rows: NewAuditRow[]): Promise<void> {
    if (this.dropped > 0) {
      this.deps.log.warn({ dropped: this.dropped }, 'audit rows dropped: the queue was full');
      this.dropped = 0;
    }
    try {
      await this.deps.store.insertMany(rows);
    } catch (err) {
      this.deps.log.error({ err, rows: rows.length }, 'writing audit rows failed');
    }
  }
}

/** How `actorOf` names a key's use: `admin (API key "ci")`. */
const KEY_ACTOR = /^(.*) \(API key "(.*)"\)$/s;

/**
 * Work started through an API key (a batch job) carries its actor as one text; the log
 * keeps the user and the key apart, so the user filter finds both.
 */
function splitActor(actor: string | null, apiKey: string | null | undefined) {
  if (apiKey !== undefined || actor === null) return { actor, apiKey: apiKey ?? null };
  const match = KEY_ACTOR.exec(actor);
  return match === null
    ? { actor, apiKey: null }
    : { actor: match[1] ?? actor, apiKey: match[2] ?? null };
}

export function toEntry(row: AuditRow): AuditEntry {
  const { at, ok, ...rest } = row;
  return { ...rest, timestamp: new Date(at).toISOString(), ok: ok === 1 };
}
