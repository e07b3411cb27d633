import type { Db } from '../../db/database.js';
import type { ContainerUpdatesTable } from '../../db/schema.js';

/** Update status per container, as the update checker records it. */
export function createUpdatesStore(db: Db) {
  return {
    /** host_id and container_id of every container whose image has an update waiting. */
    async withUpdates(): Promise<{ host_id: string; container_id: string }[]> {
      return db
        .selectFrom('container_updates')
        .select(['host_id', 'container_id'])
        .where('update_available', '=', 1)
        .execute();
    },

    /** Records one check's result (one row per host and container name). */
    async save(row: ContainerUpdatesTable): Promise<void> {
      await db
        .insertInto('container_updates')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['host_id', 'container_name']).doUpdateSet({
            container_id: row.container_id,
            image: row.image,
            current_digest: row.current_digest,
            latest_digest: row.latest_digest,
            update_available: row.update_available,
            checked_at: row.checked_at,
          }),
        )
        .execute();
    },
  };
}
export type UpdatesStore = ReturnType<typeof createUpdatesStore>;
