import { sql, type Kysely } from 'kysely';

/**
 * Alert rules, annotations, and what the rule engine keeps on an alert: its dedup key (one
 * open alert per rule and scope, enforced by a partial unique index), the occurrence count,
 * the rule's name (rules may be deleted; their alerts stay) and when it was last notified
 * (cooldowns survive a restart).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('metric', 'text')
    .addColumn('threshold', 'real')
    .addColumn('operator', 'text')
    .addColumn('duration_seconds', 'integer', (c) => c.notNull())
    .addColumn('occurrences', 'integer', (c) => c.notNull())
    .addColumn('clear_threshold', 'real')
    .addColumn('clear_duration_seconds', 'integer')
    .addColumn('cooldown_seconds', 'integer', (c) => c.notNull())
    .addColumn('host_selector_json', 'text')
    .addColumn('container_selector_json', 'text')
    .addColumn('notify_channels_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('custom_template', 'text')
    .addColumn('auto_resolve', 'integer', (c) => c.notNull())
    .addColumn('suppress_during_updates', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  for (const [name, type] of [
    ['dedup_key', 'text'],
    ['rule_name', 'text'],
    ['notified_at', 'text'],
  ] as const) {
    await db.schema.alterTable('alerts').addColumn(name, type).execute();
  }
  await db.schema
    .alterTable('alerts')
    .addColumn('occurrences', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`create unique index alerts_open_dedup on alerts(dedup_key)
    where state != 'resolved' and dedup_key is not null`.execute(db);
  // The list is read newest first, filtered or not; retention reads resolved_at.
  await db.schema.createIndex('alerts_last_seen').on('alerts').columns(['last_seen']).execute();
  await db.schema
    .createIndex('alerts_state_last_seen')
    .on('alerts')
    .columns(['state', 'last_seen'])
    .execute();
  await db.schema.createIndex('alerts_resolved_at').on('alerts').columns(['resolved_at']).execute();
  await db.schema.createIndex('alerts_scope').on('alerts').columns(['scope_id']).execute();
  await db.schema.createIndex('alerts_rule').on('alerts').columns(['rule_id']).execute();

  await db.schema
    .createTable('alert_annotations')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('alert_id', 'text', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('user', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alert_annotations_alert')
    .on('alert_annotations')
    .columns(['alert_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('alert_annotations').execute();
  for (const index of [
    'alerts_open_dedup',
    'alerts_last_seen',
    'alerts_state_last_seen',
    'alerts_resolved_at',
    'alerts_scope',
    'alerts_rule',
  ])
    await db.schema.dropIndex(index).execute();
  for (const column of ['dedup_key', 'rule_name', 'notified_at', 'occurrences'])
    await db.schema.alterTable('alerts').dropColumn(column).execute();
  await db.schema.dropTable('alert_rules').execute();
}
