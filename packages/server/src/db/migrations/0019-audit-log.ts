import { sql, type Kysely } from 'kysely';

/**
 * The audit log: who changed what, when, from where and how it ended. Time is integer
 * milliseconds (compact, and ranges compare as numbers). Rows are append-only: a trigger
 * refuses any update, so only retention (a delete of old rows) ever touches one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('api_key', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('host_id', 'text')
    .addColumn('host_name', 'text')
    .addColumn('container_id', 'text')
    .addColumn('container_name', 'text')
    .addColumn('target', 'text')
    .addColumn('address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('status', 'integer')
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor', 'at']).execute();
  await db.schema
    .createIndex('audit_log_action')
    .on('audit_log')
    .columns(['action', 'at'])
    .execute();
  await db.schema.createIndex('audit_log_ok').on('audit_log').columns(['ok', 'at']).execute();
  await sql`create trigger audit_log_append_only before update on audit_log
    begin select raise(abort, 'audit rows cannot be changed'); end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
