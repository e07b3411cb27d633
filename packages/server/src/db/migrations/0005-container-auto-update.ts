import type { Kysely } from 'kysely';

/**
 * Auto-update belongs with a container's other settings: keyed by host and name, so it
 * survives the container being recreated by an update.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('container_settings')
    .addColumn('auto_update_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('container_settings')
    .addColumn('floating_tag_mode', 'text', (c) => c.notNull().defaultTo('exact'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('container_settings').dropColumn('floating_tag_mode').execute();
  await db.schema.alterTable('container_settings').dropColumn('auto_update_enabled').execute();
}
