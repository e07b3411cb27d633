import type { BerthEvent, EventQuery } from '@berth/contracts';
import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database, EventsTable } from '../../db/schema.js';

export type NewEventRow = Insertable<EventsTable>;
type EventsEb = ExpressionBuilder<Database, 'events'>;

/** Regex search is used when the text has regex syntax and compiles; otherwise a substring. */
export function searchMode(search: string): 'regex' | 'text' {
  if (!/[\\^$.*+?()[\]{}|]/.test(search)) return 'text';
  try {
    new RegExp(search, 'i');
    return 'regex';
  } catch {
    return 'text';
  }
}

function filters(eb: EventsEb, q: EventQuery, now: number) {
  const conds = [];
  if (q.category.length > 0) conds.push(eb('category', 'in', q.category));
  if (q.severity.length > 0) conds.push(eb('severity', 'in', q.severity));
  if (q.host_id.length > 0) conds.push(eb('host_id', 'in', q.host_id));
  if (q.container_id.length > 0) conds.push(eb('container_id', 'in', q.container_id));
  if (q.event_type !== undefined) conds.push(eb('event_type', '=', q.event_type));
  if (q.container_name !== undefined)
    conds.push(likeEscaped(sql.ref('container_name'), q.container_name));
  if (q.correlation_id !== undefined) conds.push(eb('correlation_id', '=', q.correlation_id));
  const since =
    q.hours !== undefined && q.hours > 0
      ? new Date(now - q.hours * 3_600_000).toISOString()
      : q.hours === undefined
        ? q.start_date && new Date(q.start_date).toISOString()
        : undefined;
  if (since) conds.push(eb('timestamp', '>=', since));
  if (q.end_date !== undefined)
    conds.push(eb('timestamp', '<=', new Date(q.end_date).toISOString()));
  if (q.search !== undefined && q.search.trim() !== '')
    conds.push(searchFilter(eb, q.search.trim()));
  return eb.and(conds);
}

function searchFilter(eb: EventsEb, search: string) {
  const haystack = sql<string>`title || ' ' || coalesce(message, '') || ' ' || coalesce(container_name, '') || ' ' || coalesce(host_name, '')`;
  if (searchMode(search) === 'regex') {
    // Each field on its own, so ^ and $ anchor to a title or a message as users expect.
    return eb.or(
      (['title', 'message', 'container_name', 'host_name'] as const).map((field) =>
        eb(field, 'regexp', search),
      ),
    );
  }
  return likeEscaped(haystack, search);
}

/** Case-insensitive substring match where % and _ in the text are literal. */
function likeEscaped(
  column: ReturnType<typeof sql<string>> | ReturnType<typeof sql.ref>,
  text: string,
) {
  return sql<boolean>`${column} like ${`%${escapeLike(text)}%`} escape '\\'`;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Queries on the events table. */
export function createEventsStore(db: Db) {
  return {
    insert: async (row: NewEventRow): Promise<number> => {
      const r = await db.insertInto('events').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },

    query: async (
      q: EventQuery,
      now = Date.now(),
    ): Promise<{ rows: BerthEvent[]; total: number }> => {
      const base = db.selectFrom('events').where((eb) => filters(eb, q, now));
      const [rows, count] = await Promise.all([
        base
          .selectAll()
          .orderBy('timestamp', q.sort_order)
          .orderBy('id', q.sort_order)
          .limit(q.limit)
          .offset(q.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows: rows as BerthEvent[], total: count.n };
    },

    deleteOlderThan: (iso: string) =>
      db.deleteFrom('events').where('timestamp', '<', iso).execute(),
  };
}

export type EventsStore = ReturnType<typeof createEventsStore>;
