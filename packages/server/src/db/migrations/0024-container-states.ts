import type { Kysely } from 'kysely';

/**
 * Each host's containers as the monitor last saw them (name and state), stored with the host's
 * last event time: after a restart, the events the engine replays from that time start from
 * the states they changed, not from nothing. Rows go with their host and with their container.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('container_states')
    .addColumn('host_id', 'text', (c) => c.notNull().references('hosts.id').onDelete('cascade'))
    .addColumn('container_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('container_states_pk', ['host_id', 'container_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('container_states').execute();
}
