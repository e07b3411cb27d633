import type { Db } from '../../db/database.js';

/** Global settings as key → JSON value rows. */
export function createSettingsStore(db: Db) {
  return {
    readAll: async (): Promise<Record<string, unknown>> => {
      const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
      return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
    },

    writeMany: (values: Record<string, unknown>) =>
      db.transaction().execute(async (tx) => {
        for (const [key, value] of Object.entries(values)) {
          const json = JSON.stringify(value);
          await tx
            .insertInto('settings')
            .values({ key, value: json })
            .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
            .execute();
        }
      }),
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
