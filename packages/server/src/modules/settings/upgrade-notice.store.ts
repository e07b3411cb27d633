import type { Db } from '../../db/database.js';

/** The Berth version each user last saw. */
export function createUpgradeNoticeStore(db: Db) {
  return {
    read: async (userId: number): Promise<string | null> =>
      (
        await db
          .selectFrom('user_seen_versions')
          .select('version')
          .where('user_id', '=', userId)
          .executeTakeFirst()
      )?.version ?? null,

    /** Records `version` only when the user has none yet; answers whether it did. */
    recordFirst: async (userId: number, version: string, now: string): Promise<boolean> => {
      const result = await db
        .insertInto('user_seen_versions')
        .values({ user_id: userId, version, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    write: (userId: number, version: string, now: string) =>
      db
        .insertInto('user_seen_versions')
        .values({ user_id: userId, version, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ version, updated_at: now }))
        .execute(),
  };
}

export type UpgradeNoticeStore = ReturnType<typeof createUpgradeNoticeStore>;
