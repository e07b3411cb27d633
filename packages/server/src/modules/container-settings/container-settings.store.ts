import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ContainerSettingsTable } from '../../db/schema.js';

export type ContainerSettingsRow = Selectable<ContainerSettingsTable>;

/** Per-container settings, keyed by host and container name so they survive a recreate. */
export function createContainerSettingsStore(db: Db) {
  return {
    listAll: (): Promise<ContainerSettingsRow[]> =>
      db.selectFrom('container_settings').selectAll().execute(),

    get: (hostId: string, name: string): Promise<ContainerSettingsRow | undefined> =>
      db
        .selectFrom('container_settings')
        .selectAll()
        .where('host_id', '=', hostId)
        .where('container_name', '=', name)
        .executeTakeFirst(),

    upsert: (row: ContainerSettingsRow) =>
      db
        .insertInto('container_settings')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['host_id', 'container_name']).doUpdateSet({
            tags: row.tags,
            auto_restart: row.auto_restart,
            desired_state: row.desired_state,
            web_ui_url: row.web_ui_url,
            auto_update_enabled: row.auto_update_enabled,
            floating_tag_mode: row.floating_tag_mode,
            updated_at: row.updated_at,
            last_seen_at: row.last_seen_at,
          }),
        )
        .execute(),

    /** Marks the rows of containers the monitor sees now. */
    markSeen: (hostId: string, names: string[], at: string) =>
      names.length === 0
        ? Promise.resolve()
        : db
            .updateTable('container_settings')
            .set({ last_seen_at: at })
            .where('host_id', '=', hostId)
            .where('container_name', 'in', names)
            .execute()
            .then(() => undefined),
  };
}

export type ContainerSettingsStore = ReturnType<typeof createContainerSettingsStore>;
