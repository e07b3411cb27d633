import type { Kysely } from 'kysely';

/**
 * The Berth version each user last saw, for the upgrade notice: recorded at a user's first
 * look (so a first install shows no notice) and moved forward when the notice is dismissed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_seen_versions')
    .addColumn('user_id', 'integer', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_seen_versions').execute();
}
