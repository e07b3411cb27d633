import type { AuditFilter, AuditSource } from '@berth/contracts';
import {
  sql,
  type Generated,
  type Insertable,
  type Selectable,
  type SelectQueryBuilder,
} from 'kysely';
import type { Db } from '../../db/database.js';

/** audit_log (migration 0019): append-only, time in integer milliseconds. */
export interface AuditTable {
  id: Generated<number>;
  at: number;
  actor: string | null;
  api_key: string | null;
  source: AuditSource;
  action: string;
  host_id: string | null;
  host_name: string | null;
  container_id: string | null;
  container_name: string | null;
  target: string | null;
  address: string | null;
  user_agent: string | null;
  status: number | null;
  ok: number;
  error: string | null;
  duration_ms: number | null;
}
export type AuditRow = Selectable<AuditTable>;
export type NewAuditRow = Insertable<AuditTable>;

const AUDIT = 'audit_log';
type Tables = { [AUDIT]: AuditTable };
/** Every column but the id, in the order of the JSON rows the insert reads. */
const COLUMNS = [
  'at',
  'actor',
  'api_key',
  'source',
  'action',
  'host_id',
  'host_name',
  'container_id',
  'container_name',
  'target',
  'address',
  'user_agent',
  'status',
  'ok',
  'error',
  'duration_ms',
] as const satisfies readonly Exclude<keyof AuditTable, 'id'>[];

/**
 * A batch of rows as one JSON parameter that SQLite unpacks itself: the statement's text
 * never changes, so it is compiled once, and no query is built per row (a multi-row insert
 * built through Kysely cost more than the rows' own writing).
 */
const INSERT_JSON = (json: string) =>
  sql`insert into audit_log (${sql.join(COLUMNS.map((c) => sql.ref(c)))})
    select ${sql.join(COLUMNS.map((c) => sql`json_extract(value, ${sql.lit(`$.${c}`)})`))}
    from json_each(${json})`;

/** `%` and `_` are LIKE wildcards; a user's text matches as typed. */
const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createAuditStore(base: Db) {
  const db = base.$extendTables<Tables>();

  function filtered<O>(q: SelectQueryBuilder<Tables, typeof AUDIT, O>, f: AuditFilter) {
    let query = q;
    if (f.user !== undefined && f.user !== '') {
      const user = f.user;
      query = query.where((eb) => eb.or([eb('actor', '=', user), eb('api_key', '=', user)]));
    }
    if (f.action !== undefined && f.action !== '')
      query = query.where(like('action', `${likeText(f.action)}%`));
    if (f.target !== undefined && f.target !== '') {
      const text = `%${likeText(f.target)}%`;
      query = query.where((eb) =>
        eb.or(
          (['host_name', 'container_name', 'target', 'host_id', 'container_id'] as const).map(
            (column) => like(column, text),
          ),
        ),
      );
    }
    if (f.result !== undefined) query = query.where('ok', '=', f.result === 'ok' ? 1 : 0);
    if (f.from !== undefined) query = query.where('at', '>=', Date.parse(f.from));
    if (f.to !== undefined) query = query.where('at', '<=', Date.parse(f.to));
    return query;
  }

  return {
    /** The queue's whole batch in one statement, so one commit. */
    insertMany: async (rows: NewAuditRow[]): Promise<void> => {
      // A field left out of a row reads as null.
      await INSERT_JSON(JSON.stringify(rows)).execute(db);
    },

    /** A page, newest first. */
    page: (f: AuditFilter, limit: number, offset: number): Promise<AuditRow[]> =>
      filtered(db.selectFrom(AUDIT).selectAll(), f)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),

    count: async (f: AuditFilter): Promise<number> =>
      Number(
        (
          await filtered(
            db.selectFrom(AUDIT).select((eb) => eb.fn.countAll().as('n')),
            f,
          ).executeTakeFirstOrThrow()
        ).n,
      ),

    /** The next rows below `beforeId`, newest first: the export walks the log by id. */
    after: (f: AuditFilter, beforeId: number, limit: number): Promise<AuditRow[]> =>
      filtered(db.selectFrom(AUDIT).selectAll(), f)
        .where('id', '<', beforeId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),

    /** Deletes at most `limit` rows older than `cutoff` (ms); answers how many went. */
    pruneOlderThan: async (cutoff: number, limit: number): Promise<number> => {
      const result = await db
        .deleteFrom(AUDIT)
        .where(
          'id',
          'in',
          db.selectFrom(AUDIT).select('id').where('at', '<', cutoff).orderBy('at').limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** A LIKE with a backslash escape, which Kysely's own operator cannot say. */
const like = (column: keyof AuditTable, pattern: string) =>
  sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;

export type AuditStore = ReturnType<typeof createAuditStore>;
