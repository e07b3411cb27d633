import type { Kysely } from 'kysely';

/**
 * Registered hosts (TLS material sealed), per-container settings keyed by host and
 * container name (so they survive a recreate), and the event store with the indexes
 * its filters need. Events keep host ids without a foreign key: history outlives hosts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('hosts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tls_ca', 'text')
    .addColumn('tls_cert', 'text')
    .addColumn('tls_key', 'text')
    .addColumn('os_version', 'text')
    .addColumn('docker_version', 'text')
    .addColumn('num_cpus', 'integer')
    .addColumn('total_memory', 'integer')
    .addColumn('daemon_started_at', 'text')
    .addColumn('last_checked', 'text')
    .addColumn('last_event_at', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('container_settings')
    .addColumn('host_id', 'text', (c) => c.notNull().references('hosts.id').onDelete('cascade'))
    .addColumn('container_name', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('auto_restart', 'integer')
    .addColumn('desired_state', 'text', (c) => c.notNull().defaultTo('unspecified'))
    .addColumn('web_ui_url', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('container_settings_pk', ['host_id', 'container_name'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('host_id', 'text')
    .addColumn('host_name', 'text')
    .addColumn('container_id', 'text')
    .addColumn('container_name', 'text')
    .addColumn('old_state', 'text')
    .addColumn('new_state', 'text')
    .addColumn('correlation_id', 'text')
    .addColumn('triggered_by', 'text')
    .execute();
  const indexes: [string, string[]][] = [
    ['events_timestamp', ['timestamp']],
    ['events_host_timestamp', ['host_id', 'timestamp']],
    ['events_container_timestamp', ['container_id', 'timestamp']],
    ['events_category_timestamp', ['category', 'timestamp']],
    ['events_severity_timestamp', ['severity', 'timestamp']],
    ['events_correlation', ['correlation_id']],
  ];
  for (const [name, columns] of indexes) {
    await db.schema.createIndex(name).on('events').columns(columns).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['events', 'container_settings', 'hosts']) {
    await db.schema.dropTable(table).execute();
  }
}
