import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/**
 * Events per partition of the trigram index. Dropping a full partition holds the thread
 * about 12 ms on the two-core test machine (40 ms at 250,000, 130 ms at 750,000), and a
 * search reads a few more, smaller indexes instead of one.
 */
export const PARTITION_EVENTS = 100_000;

/** The event fields the index holds, in its column order. */
export const INDEXED_FIELDS = ['title', 'message', 'container_name', 'host_name'] as const;

export interface IndexPartition {
  /** The FTS5 table. */
  name: string;
  /** The first event id it indexes; it ends where the next (newer) partition begins. */
  firstId: number;
  /** Events it indexes were deleted: its matches must be checked against `events`. */
  stale: boolean;
}

/** Names the server itself made (the first partition kept the index's old name). */
const PARTITION_NAME = /^events_fts(_\d+)?$/;

/**
 * The partitions of the events' trigram index. Inserts reach the newest through a trigger,
 * retention never deletes from an index: a partition whose events have all gone is dropped
 * whole, and the boundary one keeps its stale entries till then (the join with `events`
 * drops them from every answer).
 */
export function createSearchIndex(db: Db) {
  /** Newest first. */
  const partitions = async (): Promise<IndexPartition[]> => {
    const rows = await db
      .selectFrom('events_search_partitions')
      .select(['first_id', 'name', 'stale'])
      .orderBy('first_id', 'desc')
      .execute();
    return rows.map((r) => {
      // The names go into SQL unbound: only ones of the server's own pattern may.
      if (!PARTITION_NAME.test(r.name)) throw new Error(`unexpected index partition ${r.name}`);
      return { name: r.name, firstId: r.first_id, stale: r.stale === 1 };
    });
  };

  return {
    partitions,

    /**
     * Starts a new partition when the newest indexes `cap` event ids or more; answers whether
     * it did. The new partition and the insert trigger pointing at it commit together.
     */
    rollIfFull: (cap: number): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        const newest = await trx
          .selectFrom('events_search_partitions')
          .select('first_id')
          .orderBy('first_id', 'desc')
          .executeTakeFirstOrThrow();
        // AUTOINCREMENT: every later event's id is above the highest ever used.
        const { rows } = await sql<{
          seq: number;
        }>`select seq from sqlite_sequence where name = 'events'`.execute(trx);
        const next = (rows[0]?.seq ?? 0) + 1;
        if (next - newest.first_id < cap) return false;
        const name = sql.table(`events_fts_${next}`);
        await sql`create virtual table ${name} using fts5(
          title, message, container_name, host_name,
          content='events', content_rowid='id', tokenize='trigram case_sensitive 0'
        )`.execute(trx);
        await trx
          .insertInto('events_search_partitions')
          .values({ first_id: next, name: `events_fts_${next}` })
          .execute();
        await sql`drop trigger if exists events_fts_insert`.execute(trx);
        await sql`create trigger events_fts_insert after insert on events begin
          insert into ${name}(rowid, title, message, container_name, host_name)
          values (new.id, new.title, new.message, new.container_name, new.host_name);
        end`.execute(trx);
        return true;
      }),

    /**
     * Drops the oldest partition none of whose events is left (never the newest: inserts go
     * there); false when there is none.
     */
    dropOneEmpty: async (): Promise<boolean> => {
      // Oldest first, each with the first id of the next (newer) one.
      const all = (await partitions()).reverse();
      for (const [i, partition] of all.entries()) {
        const end = all[i + 1]?.firstId;
        if (end === undefined) break;
        const live = await db
          .selectFrom('events')
          .select('id')
          .where('id', '>=', partition.firstId)
          .where('id', '<', end)
          .limit(1)
          .executeTakeFirst();
        if (live !== undefined) continue;
        await db.transaction().execute(async (trx) => {
          await trx
            .deleteFrom('events_search_partitions')
            .where('first_id', '=', partition.firstId)
            .execute();
          await sql`drop table ${sql.table(partition.name)}`.execute(trx);
        });
        return true;
      }
      return false;
    },
  };
}

export type SearchIndex = ReturnType<typeof createSearchIndex>;
