import type { Db } from '../../db/database.js';

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
  };
}
export type UpdatesStore = ReturnType<typeof createUpdatesStore>;
