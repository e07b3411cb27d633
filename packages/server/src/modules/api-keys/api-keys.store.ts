import type { Generated, Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';

/** api_keys (migration 0018): one row per key, the key itself only as its sha-256. */
export interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  scope: string;
  key_hash: string;
  /** The key's first characters, shown to tell keys apart. */
  prefix: string;
  /** The user the key acts for. */
  user_id: number;
  created_at: string;
  /** Written at most once a minute, so reads stay reads. */
  last_used_at: string | null;
  expires_at: string | null;
}
export type ApiKeyRow = Selectable<ApiKeyTable>;

const KEYS = 'api_keys';

export function createApiKeysStore(base: Db) {
  const db = base.$extendTables<{ [KEYS]: ApiKeyTable }>();
  return {
    insert: async (row: Insertable<ApiKeyTable>): Promise<number> =>
      (await db.insertInto(KEYS).values(row).returning('id').executeTakeFirstOrThrow()).id,

    list: (): Promise<ApiKeyRow[]> => db.selectFrom(KEYS).selectAll().orderBy('id').execute(),

    count: async (): Promise<number> =>
      Number(
        (
          await db
            .selectFrom(KEYS)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),

    byHash: (keyHash: string): Promise<ApiKeyRow | undefined> =>
      db.selectFrom(KEYS).selectAll().where('key_hash', '=', keyHash).executeTakeFirst(),

    byName: (name: string): Promise<ApiKeyRow | undefined> =>
      db.selectFrom(KEYS).selectAll().where('name', '=', name).executeTakeFirst(),

    byId: (id: number): Promise<ApiKeyRow | undefined> =>
      db.selectFrom(KEYS).selectAll().where('id', '=', id).executeTakeFirst(),

    touch: (id: number, at: string) =>
      db.updateTable(KEYS).set({ last_used_at: at }).where('id', '=', id).execute(),

    remove: async (id: number): Promise<boolean> =>
      (await db.deleteFrom(KEYS).where('id', '=', id).executeTakeFirst()).numDeletedRows === 1n,
  };
}
export type ApiKeysStore = ReturnType<typeof createApiKeysStore>;
