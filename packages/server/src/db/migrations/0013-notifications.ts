import type { Kysely } from 'kysely';

/**
 * Notification channels (secrets sealed with the secret box, the rest as JSON) and the
 * outbox: every notification due is written here first, then delivered with retries.
 * `dedup_key` (alert, transition, channel) is unique, so one transition is queued once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_channels')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('config_json', 'text', (c) => c.notNull())
    .addColumn('secrets_sealed', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('last_delivered_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('notification_outbox')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('dedup_key', 'text', (c) => c.notNull().unique())
    .addColumn('channel_id', 'integer', (c) =>
      c.notNull().references('notification_channels.id').onDelete('cascade'),
    )
    .addColumn('alert_id', 'text')
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('message_json', 'text', (c) => c.notNull())
    // pending, sending, held (blackout), delivered, failed, dropped (summarised or moot)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('delivered_at', 'integer')
    .execute();
  await db.schema
    .createIndex('notification_outbox_due')
    .on('notification_outbox')
    .columns(['status', 'channel_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_outbox').execute();
  await db.schema.dropTable('notification_channels').execute();
}
