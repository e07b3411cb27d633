import type { EventQuery } from '@berth/contracts';
import { expressionBuilder, sql, type ExpressionBuilder, type Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database, EventsTable } from '../../db/schema.js';

export type NewEventRow = Insertable<EventsTable>;
export type EventsEb = ExpressionBuilder<Database, 'events'>;

/** Every filter of the query except `search`, which runs off the main thread. */
export function filters(eb: EventsEb, q: EventQuery, now: number) {
  return eb.and(conditions(eb, q, now));
}

/** True when the query narrows the events by anything but `search`. */
export const hasFilters = (q: EventQuery, now: number) =>
  conditions(expressionBuilder<Database, 'events'>(), q, now).length > 0;

function conditions(eb: EventsEb, q: EventQuery, now: number) {
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
  return conds;
}

/** Case-insensitive substring match where % and _ in the text are literal. */
export function likeEscaped(column: ReturnType<typeof sql.ref>, text: string) {
  return sql<boolean>`${column} like ${`%${escapeLike(text)}%`} escape '\\'`;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Queries on the events table. */
export function createEventsStore(db: Db) {
  return {
    db,

    insert: async (row: NewEventRow): Promise<number> => {
      const r = await db.insertInto('events').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },

    /** Deletes at most `limit` events older than `cutoff` (ISO); answers how many went. */
    pruneOlderThan: async (cutoff: string, limit: number): Promise<number> => {
      const r = await db
        .deleteFrom('events')
        .where('id', 'in', (eb) =>
          eb.selectFrom('events').select('id').where('timestamp', '<', cutoff).limit(limit),
        )
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** Events stored (SQLite counts the b-tree's pages, not row by row). */
    count: async (): Promise<number> => {
      const r = await db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return r.n;
    },
  };
}

export type EventsStore = ReturnType<typeof createEventsStore>;
