import type { Generated, Insertable } from 'kysely';
import type { Db } from '../../db/database.js';

/** exec_recordings (migration 0027): one container shell session's typed input. */
export interface ExecRecordingsTable {
  id: Generated<number>;
  started_at: number;
  ended_at: number;
  actor: string;
  host_id: string;
  container_id: string;
  command: string;
  input: string;
  truncated: number;
}
export type NewExecRecording = Insertable<ExecRecordingsTable>;

const TABLE = 'exec_recordings';
type Tables = { [TABLE]: ExecRecordingsTable };

/** Recordings are few (one per session with recording on); a delete this size is short. */
const PRUNE_BATCH = 500;

export function createExecStore(base: Db) {
  const db = base.$extendTables<Tables>();
  return {
    insert: async (row: NewExecRecording): Promise<void> => {
      await db.insertInto(TABLE).values(row).execute();
    },

    /** Deletes at most one batch of recordings that started before `cutoff` (ms). */
    pruneOlderThan: async (cutoff: number): Promise<number> => {
      const result = await db
        .deleteFrom(TABLE)
        .where(
          'id',
          'in',
          db.selectFrom(TABLE).select('id').where('started_at', '<', cutoff).limit(PRUNE_BATCH),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** A page of recordings, the newest first, each with its input's length (not the input). */
    list: async (limit: number, offset: number) =>
      db
        .selectFrom(TABLE)
        .select((eb) => [
          'id',
          'started_at',
          'ended_at',
          'actor',
          'host_id',
          'container_id',
          'command',
          'truncated',
          eb.fn<number>('length', ['input']).as('length'),
        ])
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),

    get: (id: number) => db.selectFrom(TABLE).selectAll().where('id', '=', id).executeTakeFirst(),

    count: async (): Promise<number> => {
      const row = await db
        .selectFrom(TABLE)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return row.n;
    },
  };
}

export type ExecStore = ReturnType<typeof createExecStore>;
