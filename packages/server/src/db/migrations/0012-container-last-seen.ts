import type { Kysely } from 'kysely';

/**
 * When the monitor last saw each container that has settings: tags of a container nobody
 * has seen for `unused_tag_retention_days` are unused and go at the next retention run.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('container_settings').addColumn('last_seen_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('container_settings').dropColumn('last_seen_at').execute();
}
