import type { BerthEvent, EventQuery } from '@berth/contracts';
import {
  sql,
  type Compilable,
  type Expression,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Db } from '../../db/database.js';
import { badRequest, tooManyRequests } from '../../platform/http-errors.js';
import { filters, hasFilters, likeEscaped, type EventsEb } from './events.store.js';
import {
  assertRunnableRegex,
  ftsPhrase,
  indexable,
  joinedTextTestable,
  requiredLiteral,
  searchMode,
} from './search-pattern.js';
import { createSearchIndex, INDEXED_FIELDS, type IndexPartition } from './search-index.js';
import { SearchPool } from './search-pool.js';
import { CANDIDATES, REGEX_FUNCTION, type CompiledSql } from './search-worker.js';

/** How long one search may take, queueing included, before it is refused. */
export const SEARCH_BUDGET_MS = 2000;
/** A plain page only counts and reads an index range: far below this unless the disk stalls. */
const PAGE_BUDGET_MS = 10_000;

const FIELDS = INDEXED_FIELDS;

const anyFieldContains = (eb: EventsEb, text: string) =>
  eb.or(FIELDS.map((f) => likeEscaped(sql.ref(f), text)));

/**
 * Ids whose indexed text contains the text (trigram index: case-insensitive substring), newest
 * partition first. A stale partition's ids may be gone: every use joins them with `events`.
 */
const indexLookup = (text: string, partitions: IndexPartition[]): CompiledSql => ({
  sql: partitions
    .map(({ name }) => `select rowid from "${name}" where "${name}" match ?`)
    .join(' union all '),
  parameters: partitions.map(() => ftsPhrase(text)),
});

/** `partition match phrase`: the partition's table as the left operand of MATCH. */
const matches = (partition: IndexPartition, text: string) =>
  sql<boolean>`${sql.ref(partition.name)} match ${ftsPhrase(text)}`;
/** How many filtered rows the worker counts before it deems the selection large. */
const PROBE_CAP = 20_001;

/** The fields joined by newlines tested in SQL: one RE2 call rules most rows out. */
const joinedFieldsMatch = sql<boolean>`${sql.raw(REGEX_FUNCTION)}(${sql.join(
  FIELDS.map((f) => sql`coalesce(${sql.ref(f)}, '')`),
  sql` || char(10) || `,
)}) = 1`;
/** What a regex scan reads of each row kept: every field, tested one by one. */
const scanColumns = [...FIELDS];

type EventsSelect =
  ReturnType<Db['selectFrom']> extends never
    ? never
    : SelectQueryBuilder<Database, 'events', object>;

const orderedScan = (
  base: EventsSelect,
  q: EventQuery,
  columns: readonly (typeof FIELDS)[number][],
) =>
  base
    .select(['id', ...columns])
    .orderBy('timestamp', q.sort_order)
    .orderBy('id', q.sort_order);

const compiled = (query: Compilable): CompiledSql => {
  const { sql: text, parameters } = query.compile();
  return { sql: text, parameters };
};

/**
 * The log's text and regex search. Both run in worker threads on their own connection, so
 * neither a large scan nor a costly regex delays other requests; substring search reads the
 * trigram index, and a regex reads it too when the pattern has a required literal.
 */
export class EventSearch {
  private dbPath: Promise<string> | null = null;
  private readonly index;

  constructor(
    private readonly db: Db,
    private readonly pool = new SearchPool(),
  ) {
    this.index = createSearchIndex(db);
  }

  async run(
    q: EventQuery,
    search: string,
    now: number,
  ): Promise<{ rows: BerthEvent[]; total: number }> {
    const regex = searchMode(search) === 'regex';
    if (regex) assertRunnableRegex(search);
    let outcome = await this.runOnce(q, search, regex, now);
    // Retention dropped a partition between reading the list and the worker's query.
    if (!outcome.ok && outcome.reason === 'error' && /no such table/.test(outcome.message))
      outcome = await this.runOnce(q, search, regex, now);
    if (outcome.ok) return { rows: outcome.rows as BerthEvent[], total: outcome.total };
    if (outcome.reason === 'busy')
      throw tooManyRequests('search: Too many searches at once; try again shortly');
    if (outcome.reason === 'timeout')
      throw badRequest(
        `search: ${regex ? 'Regular expression search' : 'Search'} took too long; narrow the time range or the filters`,
      );
    throw new Error(`event search failed: ${outcome.message}`);
  }

  private async runOnce(q: EventQuery, search: string, regex: boolean, now: number) {
    const [dbPath, partitions] = await Promise.all([this.path(), this.index.partitions()]);
    return this.pool.run({
      kind: 'search',
      dbPath,
      deadline: now + SEARCH_BUDGET_MS,
      offset: q.offset,
      limit: q.limit,
      descending: q.sort_order === 'desc',
      ...(regex
        ? this.regexJob(q, search, now, partitions)
        : this.textJob(q, search, now, partitions)),
    });
  }

  /**
   * A page of a query without search, read by a worker too: counting what the filters select
   * over a million events takes longer than the main thread may be held.
   */
  async page(q: EventQuery, now: number): Promise<{ rows: BerthEvent[]; total: number }> {
    const base = this.db.selectFrom('events').where((eb) => filters(eb, q, now));
    const outcome = await this.pool.run({
      kind: 'page',
      dbPath: await this.path(),
      deadline: now + PAGE_BUDGET_MS,
      page: compiled(
        base
          .selectAll()
          .orderBy('timestamp', q.sort_order)
          .orderBy('id', q.sort_order)
          .limit(q.limit)
          .offset(q.offset),
      ),
      count: compiled(base.select((eb) => eb.fn.countAll<number>().as('n'))),
    });
    if (outcome.ok) return { rows: outcome.rows as BerthEvent[], total: outcome.total };
    if (outcome.reason === 'busy')
      throw tooManyRequests('Too many event queries at once; try again shortly');
    if (outcome.reason === 'timeout')
      throw badRequest('Event query took too long; narrow the time range or the filters');
    throw new Error(`event query failed: ${outcome.message}`);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private textJob(q: EventQuery, text: string, now: number, partitions: IndexPartition[]) {
    const index = indexable(text) && partitions.length > 0;
    return {
      // The index answers exactly what it was asked: its candidates need no second test.
      ...this.scans(q, now, [], (eb) => anyFieldContains(eb, text), false),
      index: index ? indexLookup(text, partitions) : null,
      indexMatches: index ? compiled(this.indexMatches(q, text, now, partitions)) : null,
      indexCount: index ? this.indexCount(q, text, now, partitions) : null,
      scanPage: compiled(
        this.ordered(q, now, [], (eb) => anyFieldContains(eb, text))
          .limit(q.limit)
          .offset(q.offset),
      ),
      regex: null,
      joinedTest: false,
    };
  }

  /**
   * How many events the index finds for the text among those the filters select. Without
   * filters, a partition that lost no event counts from the index alone, reading no event.
   */
  private indexCount(
    q: EventQuery,
    text: string,
    now: number,
    partitions: IndexPartition[],
  ): CompiledSql {
    const count = (query: Compilable) =>
      sql`(${this.db
        .selectFrom(sql`(${query})`.as('m'))
        .select((eb) => eb.fn.countAll<number>().as('n'))})`;
    if (hasFilters(q, now))
      return compiled(
        this.db.selectNoFrom(count(this.indexMatches(q, text, now, partitions)).as('n')),
      );
    const perPartition = partitions.map((p) =>
      p.stale
        ? count(this.partitionMatches(p, q, text, now))
        : count(
            this.db
              .selectFrom(sql<{ rowid: number }>`${sql.table(p.name)}`.as('f'))
              .where(matches(p, text))
              .select('f.rowid'),
          ),
    );
    return compiled(this.db.selectNoFrom(sql<number>`${sql.join(perPartition, sql` + `)}`.as('n')));
  }

  /** `[id, timestamp]` of the events the index finds for the text among those the filters select. */
  private indexMatches(q: EventQuery, text: string, now: number, partitions: IndexPartition[]) {
    const [newest, ...older] = partitions;
    if (newest === undefined) throw new Error('the search index has no partition');
    return older.reduce(
      (all, p) => all.unionAll(this.partitionMatches(p, q, text, now)),
      this.partitionMatches(newest, q, text, now),
    );
  }

  private partitionMatches(partition: IndexPartition, q: EventQuery, text: string, now: number) {
    return this.db
      .selectFrom('events')
      .innerJoin(
        sql<{ rowid: number }>`${sql.table(partition.name)}`.as('f'),
        'f.rowid',
        'events.id',
      )
      .where(matches(partition, text))
      .where((eb) => filters(eb, q, now))
      .select(['events.id', 'events.timestamp']);
  }

  /**
   * A scan keeps, in SQL, only rows that contain the pattern's required literal (ASCII, so
   * LIKE's case folding agrees with the regex's) and whose joined fields match; the worker
   * then tests each field of the few rows left.
   */
  private regexJob(q: EventQuery, pattern: string, now: number, partitions: IndexPartition[]) {
    const literal = requiredLiteral(pattern);
    const joinedTest = joinedTextTestable(pattern);
    const match = (eb: EventsEb) =>
      eb.and([
        ...(literal === null ? [] : [anyFieldContains(eb, literal)]),
        ...(joinedTest ? [joinedFieldsMatch] : []),
      ]);
    return {
      ...this.scans(q, now, scanColumns, match, true),
      index: literal === null || partitions.length === 0 ? null : indexLookup(literal, partitions),
      indexMatches: null,
      indexCount: null,
      scanPage: null,
      regex: pattern,
      joinedTest,
    };
  }

  /** The probe and the two ordered scans: over the index's candidates, and over everything. */
  private scans(
    q: EventQuery,
    now: number,
    columns: readonly (typeof FIELDS)[number][],
    match: (eb: EventsEb) => Expression<SqlBool>,
    matchCandidates: boolean,
  ) {
    const filtered = this.db.selectFrom('events').where((eb) => filters(eb, q, now));
    const probe = this.db
      .selectFrom(filtered.select('id').limit(PROBE_CAP).as('f'))
      .select((eb) => eb.fn.countAll<number>().as('n'));
    const ordered = (base: typeof filtered) => orderedScan(base, q, columns);
    const indexed = filtered.where(
      sql<boolean>`id in (select value from json_each(${CANDIDATES}))`,
    );
    const candidates = matchCandidates ? indexed.where(match) : indexed;
    return {
      probe: compiled(probe),
      scanCandidates: compiled(ordered(candidates)),
      scanAll: compiled(ordered(filtered.where(match))),
    };
  }

  /** Every row the filters select that matches, in the query's order. */
  private ordered(
    q: EventQuery,
    now: number,
    columns: readonly (typeof FIELDS)[number][],
    match: (eb: EventsEb) => Expression<SqlBool>,
  ) {
    return orderedScan(
      this.db
        .selectFrom('events')
        .where((eb) => filters(eb, q, now))
        .where(match),
      q,
      columns,
    );
  }

  /** The database file, which the workers open read-only. */
  private path(): Promise<string> {
    this.dbPath ??= sql<{ name: string; file: string }>`pragma database_list`
      .execute(this.db)
      .then(({ rows }) => {
        const file = rows.find((r) => r.name === 'main')?.file;
        if (file === undefined || file === '')
          throw new Error('event search needs a database file');
        return file;
      });
    return this.dbPath;
  }
}
