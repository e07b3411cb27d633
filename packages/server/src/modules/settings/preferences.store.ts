import type { Db } from '../../db/database.js';

/** One JSON document of preferences per user. */
export function createPreferencesStore(db: Db) {
  return {
    read: async (userId: number): Promise<unknown> => {
      const row = await db
        .selectFrom('user_preferences')
        .select('data')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row === undefined ? {} : (JSON.parse(row.data) as unknown);
    },

    write: (userId: number, data: string, now: string) =>
      db
        .insertInto('user_preferences')
        .values({ user_id: userId, data, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ data, updated_at: now }))
        .execute(),
  };
}

export type PreferencesStore = ReturnType<typeof createPreferencesStore>;
