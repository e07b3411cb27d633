import type { Kysely } from 'kysely';

/**
 * Alerts (raised by rules; the dashboard and hosts screens count them) and the update
 * status of each container (written by the update checker). Both are keyed so that
 * history outlives a host: no foreign keys to hosts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('scope_type', 'text', (c) => c.notNull())
    .addColumn('scope_id', 'text', (c) => c.notNull())
    .addColumn('host_id', 'text')
    .addColumn('host_name', 'text')
    .addColumn('container_name', 'text')
    .addColumn('rule_id', 'text')
    .addColumn('first_seen', 'text', (c) => c.notNull())
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .addColumn('current_value', 'real')
    .addColumn('threshold', 'real')
    .addColumn('snoozed_until', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_reason', 'text')
    .execute();
  await db.schema.createIndex('alerts_state').on('alerts').columns(['state']).execute();
  await db.schema.createIndex('alerts_host').on('alerts').columns(['host_id', 'state']).execute();

  await db.schema
    .createTable('container_updates')
    .addColumn('host_id', 'text', (c) => c.notNull())
    .addColumn('container_name', 'text', (c) => c.notNull())
    .addColumn('container_id', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('current_digest', 'text')
    .addColumn('latest_digest', 'text')
    .addColumn('update_available', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('container_updates_pk', ['host_id', 'container_name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('container_updates').execute();
  await db.schema.dropTable('alerts').execute();
}
