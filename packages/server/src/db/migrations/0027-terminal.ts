import type { Kysely } from 'kysely';

/**
 * What users typed in container shells, one row per session, kept only while the
 * `exec_recording` setting is on and deleted after `exec_recording_days` (modules/exec).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('exec_recordings')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('started_at', 'integer', (c) => c.notNull())
    .addColumn('ended_at', 'integer', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('host_id', 'text', (c) => c.notNull())
    .addColumn('container_id', 'text', (c) => c.notNull())
    .addColumn('command', 'text', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('truncated', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('exec_recordings_started_at')
    .on('exec_recordings')
    .column('started_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('exec_recordings').execute();
}
