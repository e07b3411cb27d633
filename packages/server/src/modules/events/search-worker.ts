// Runs event searches off the main thread on its own read-only connection, so a long scan
// never delays other requests. Self-contained (packages only): Node loads it directly, as
// TypeScript under tests and as JavaScript from dist.
import Database from 'better-sqlite3';
import RE2 from 're2';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { basename } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

export interface CompiledSql {
  sql: string;
  parameters: readonly unknown[];
}

/** What the pool passes as `workerData`, so only its workers serve jobs. */
export const WORKER_ROLE = 'berth-event-search';

/** Stands for the JSON list of candidate ids in `scanCandidates`' parameters. */
export const CANDIDATES = '\u0000candidates';
/** The SQL function that tests a row's joined text with the job's regex (see `search`). */
export const REGEX_FUNCTION = 'berth_regex';

export interface SearchJob {
  kind: 'search';
  id: number;
  dbPath: string;
  /** Date.now() after which the worker gives up. */
  deadline: number;
  /** Counts the rows the other filters select, up to a cap. */
  probe: CompiledSql;
  /** Ids the trigram index says contain the text or the regex's literal; null: no index use. */
  index: CompiledSql | null;
  /**
   * For a substring search, `[id, timestamp]` of every row the index matches and the filters
   * select: the index answers a substring exactly, so no row needs a second test.
   */
  indexMatches: CompiledSql | null;
  /** How many rows the index matches among those the filters select (with `indexMatches`). */
  indexCount: CompiledSql | null;
  /** `scanAll`'s page alone (limit and offset in SQL): `[id]` rows. */
  scanPage: CompiledSql | null;
  /** Newest first (the scans' order; `indexMatches` is ordered here). */
  descending: boolean;
  /** The ordered scan limited to the index's candidates. */
  scanCandidates: CompiledSql;
  /** The ordered scan of every row the filters select. */
  scanAll: CompiledSql;
  /** Tested on each scanned row when set; otherwise the SQL alone decides. */
  regex: string | null;
  /** The scans' SQL calls `berth_regex(joined fields)` with `regex` in multiline mode. */
  joinedTest: boolean;
  offset: number;
  limit: number;
}

/** A page of a query without search: the page's rows and the total the filters select. */
export interface PageJob {
  kind: 'page';
  id: number;
  dbPath: string;
  deadline: number;
  page: CompiledSql;
  count: CompiledSql;
}

export type SearchReply = { id: number } & (
  | { ok: true; rows: Record<string, unknown>[]; total: number }
  | { ok: false; reason: 'timeout' | 'error'; message: string }
);

/** The worker threads' nice value: below the main thread's 0 (higher is gentler). */
const SEARCH_NICE = 10;
/** Distinct texts a regex scan remembers its answer for (a few MB at most). */
const MAX_KNOWN_TEXTS = 50_000;
/** Past this many index matches, the page comes from the ordered scan (see `fromIndex`). */
const MANY_MATCHES = 2000;
/** Rows between clock checks while scanning. */
const CHECK_EVERY = 512;
/** When the filters alone select this few rows, scanning them beats reading the index. */
const SMALL_SELECTION = 20_000;
/** When the index offers more candidates than this, a plain scan is cheaper. */
const MAX_CANDIDATES = 50_000;
/**
 * How long reading the index may take before the plain scan is deemed cheaper: a phrase of
 * common trigrams walks long posting lists before it yields its first ids.
 */
const INDEX_BUDGET_MS = 120;
/**
 * Reads through a memory map and a larger cache: counting or scanning a million rows then
 * costs about half (the default 2 MB cache re-reads every page through system calls).
 */
const READ_PRAGMAS = ['mmap_size = 536870912', 'cache_size = -32768', 'busy_timeout = 5000'];

let connection: { path: string; db: Database.Database } | null = null;
/** The running job's regex over the joined fields (multiline), read by the SQL function. */
let current: {
  regex: RE2;
  deadline: number;
  calls: number;
  /** Answers per text: event texts repeat (the same titles, names and messages) a lot. */
  known: Map<string, number>;
} | null = null;

/** `berth_regex(text)`: 1 when the running job's regex matches; checks the clock meanwhile. */
function regexMatches(text: unknown): number {
  if (current === null || typeof text !== 'string') return 0;
  check(++current.calls, current.deadline);
  const known = current.known.get(text);
  if (known !== undefined) return known;
  const answer = current.regex.test(text) ? 1 : 0;
  if (current.known.size < MAX_KNOWN_TEXTS) current.known.set(text, answer);
  return answer;
}
function open(path: string): Database.Database {
  if (connection?.path !== path) {
    connection?.db.close();
    const db = new Database(path, { readonly: true, fileMustExist: true });
    for (const pragma of READ_PRAGMAS) db.pragma(pragma);
    db.function(REGEX_FUNCTION, { deterministic: true }, regexMatches);
    connection = { path, db };
  }
  return connection.db;
}

class Timeout extends Error {}

const check = (n: number, deadline: number) => {
  if (n % CHECK_EVERY === 0 && Date.now() > deadline) throw new Timeout();
};

/** The candidate ids as JSON, or null when scanning the filtered rows is the cheaper way. */
/** True when the filters alone select more rows than scanning them beats reading the index. */
function selectsMany(db: Database.Database, job: SearchJob): boolean {
  if (job.index === null) return false;
  const selected = db
    .prepare(job.probe.sql)
    .pluck()
    .get(...job.probe.parameters);
  return Number(selected) > SMALL_SELECTION;
}

/** The candidate ids as JSON, or null when scanning the filtered rows is the cheaper way. */
function candidates(db: Database.Database, index: CompiledSql, deadline: number): string | null {
  const giveUpAt = Math.min(deadline, Date.now() + INDEX_BUDGET_MS);
  const ids: number[] = [];
  const rows = db
    .prepare(index.sql)
    .pluck()
    .iterate(...index.parameters);
  for (const id of rows as Iterable<number>) {
    if (ids.length >= MAX_CANDIDATES) return null;
    ids.push(id);
    if (ids.length % CHECK_EVERY === 0 && Date.now() > giveUpAt) return null;
  }
  return JSON.stringify(ids);
}

type Match = [id: number, timestamp: string];

/**
 * A substring search over a large selection, answered from the index: every match with its
 * timestamp, the page picked in memory. Past `MANY_MATCHES` matches the page is found by the
 * ordered scan instead, which meets that many soon, and the index counts the rest in SQL;
 * handing each of 70,000 matches to JavaScript cost more than finding them.
 */
function fromIndex(db: Database.Database, job: SearchJob, matches: CompiledSql) {
  const found: Match[] = [];
  for (const row of db
    .prepare(matches.sql)
    .raw()
    .iterate(...matches.parameters) as Iterable<Match>) {
    found.push(row);
    check(found.length, job.deadline);
    if (found.length > MANY_MATCHES && job.indexCount !== null && job.scanPage !== null)
      return manyMatches(db, job.indexCount, job.scanPage);
  }
  const sign = job.descending ? -1 : 1;
  const order = (a: Match, b: Match) => sign * (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] - b[0]);
  const page = firstInOrder(found, job.offset + job.limit, order).slice(job.offset);
  return {
    rows: rowsById(
      db,
      page.map(([id]) => id),
    ),
    total: found.length,
  };
}

function manyMatches(db: Database.Database, count: CompiledSql, scanPage: CompiledSql) {
  const total = Number(
    db
      .prepare(count.sql)
      .pluck()
      .get(...count.parameters),
  );
  const ids = db
    .prepare(scanPage.sql)
    .pluck()
    .all(...scanPage.parameters) as number[];
  return { rows: rowsById(db, ids), total };
}

/** The first `k` items in order, without sorting them all when k is small. */
function firstInOrder<T>(items: T[], k: number, order: (a: T, b: T) => number): T[] {
  if (k * 8 > items.length) return items.sort(order).slice(0, k);
  const best: T[] = [];
  for (const item of items) {
    const worst = best[best.length - 1];
    if (best.length >= k && worst !== undefined && order(item, worst) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order(best[mid] as T, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, item);
    if (best.length > k) best.pop();
  }
  return best;
}

/** Full rows for the page's ids, in the page's order. */
function rowsById(db: Database.Database, ids: number[]): Record<string, unknown>[] {
  const byId = new Map<unknown, Record<string, unknown>>(
    (
      db
        .prepare('select * from events where id in (select value from json_each(?))')
        .all(JSON.stringify(ids)) as Record<string, unknown>[]
    ).map((r) => [r.id, r]),
  );
  return ids.flatMap<Record<string, unknown>>((id) => byId.get(id) ?? []);
}

/**
 * Scan rows are `[id]`, or for a regex `[id, ...fields]`. When `joinedTest` is set the scan's
 * SQL already kept only rows whose fields, joined by newlines, match the regex in multiline
 * mode (one RE2 call per row inside SQLite, without building a row object for the others;
 * every per-field match also matches there); each field is then tested on its own.
 */
function search(db: Database.Database, job: SearchJob) {
  const many = selectsMany(db, job);
  if (many && job.indexMatches !== null) return fromIndex(db, job, job.indexMatches);
  const ids = many && job.index !== null ? candidates(db, job.index, job.deadline) : null;
  const scan =
    ids === null
      ? job.scanAll
      : {
          sql: job.scanCandidates.sql,
          parameters: job.scanCandidates.parameters.map((p) => (p === CANDIDATES ? ids : p)),
        };
  const field = job.regex === null ? null : new RE2(job.regex, 'i');
  current =
    job.regex !== null && job.joinedTest
      ? { regex: new RE2(job.regex, 'im'), deadline: job.deadline, calls: 0, known: new Map() }
      : null;
  const pageIds: number[] = [];
  let total = 0;
  let seen = 0;
  try {
    for (const row of db
      .prepare(scan.sql)
      .raw()
      .iterate(...scan.parameters) as Iterable<unknown[]>) {
      check(++seen, job.deadline);
      const [id, ...fields] = row as [number, ...(string | null)[]];
      if (field !== null && !fields.some((f) => f !== null && field.test(f))) continue;
      if (total >= job.offset && pageIds.length < job.limit) pageIds.push(id);
      total++;
    }
  } finally {
    current = null;
  }
  return { rows: rowsById(db, pageIds), total };
}

/** Counting a million rows takes a while; here it delays no other request. */
function page(db: Database.Database, job: PageJob) {
  const rows = db.prepare(job.page.sql).all(...job.page.parameters) as Record<string, unknown>[];
  const total = Number(
    db
      .prepare(job.count.sql)
      .pluck()
      .get(...job.count.parameters),
  );
  return { rows, total };
}

function handle(job: SearchJob | PageJob): SearchReply {
  try {
    const db = open(job.dbPath);
    const result = job.kind === 'page' ? page(db, job) : search(db, job);
    return { id: job.id, ok: true, ...result };
  } catch (error) {
    if (error instanceof Timeout) return { id: job.id, ok: false, reason: 'timeout', message: '' };
    const message = error instanceof Error ? error.message : String(error);
    return { id: job.id, ok: false, reason: 'error', message };
  }
}

/**
 * A search gives way to the main thread (requests, the live channel, engine heartbeats) when
 * the cores are busy: on Linux a thread has its own nice value, and /proc/thread-self names
 * this one. Elsewhere searches keep the normal priority.
 */
function yieldToMainThread(): void {
  try {
    setPriority(Number(basename(readlinkSync('/proc/thread-self'))), SEARCH_NICE);
  } catch {
    // not Linux, or not allowed: searches still have their time budget
  }
}
// The main thread imports this file for its types and constants: only a pool's worker serves.
if (parentPort !== null && (workerData as { role?: unknown } | null)?.role === WORKER_ROLE) {
  const port = parentPort;
  yieldToMainThread();
  port.on('message', (job: SearchJob | PageJob) => {
    port.postMessage(handle(job));
  });
}
