import type { Kysely } from 'kysely';

/** Batch jobs and their items, kept so a browser that reloads still sees its jobs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batch_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createTable('batch_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('job_id', 'text', (c) => c.notNull().references('batch_jobs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('host_id', 'text', (c) => c.notNull())
    .addColumn('host_name', 'text')
    .addColumn('container_id', 'text', (c) => c.notNull())
    .addColumn('container_name', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .execute();
  await db.schema
    .createIndex('batch_items_job')
    .on('batch_items')
    .columns(['job_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('batch_items').execute();
  await db.schema.dropTable('batch_jobs').execute();
}
