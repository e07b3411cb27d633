import type { Kysely } from 'kysely';

/** Default patterns of the update policy categories (warn before updating these). */
export const DEFAULT_POLICY_PATTERNS: Record<string, string[]> = {
  databases: [
    'postgres',
    'mysql',
    'mariadb',
    'mongo',
    'redis',
    'valkey',
    'sqlite',
    'mssql',
    'cassandra',
    'influxdb',
    'elasticsearch',
    'opensearch',
    'clickhouse',
    'couchdb',
    'timescale',
  ],
  proxies: ['traefik', 'nginx', 'caddy', 'haproxy', 'envoy', 'swag', 'nginx-proxy-manager'],
  monitoring: ['grafana', 'prometheus', 'alertmanager', 'uptime-kuma', 'loki', 'node-exporter'],
  critical: ['portainer', 'watchtower', 'authelia', 'authentik', 'vaultwarden'],
};

/**
 * Image updates: what a check found beyond the digest (the newer tag, why it could not
 * check, a version that failed and must not be offered again, the image an update replaced
 * for Roll back, the version an alert was raised for); per-container update settings that
 * are not in container_settings (policy and resource links), all keyed by host and name so
 * they follow a recreated container; global policy patterns; registry credentials, the
 * password sealed with the secret box.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of [
    'latest_image',
    'last_error',
    'failed_digest',
    'previous_image',
    'previous_image_id',
    'alerted_digest',
  ]) {
    await db.schema.alterTable('container_updates').addColumn(column, 'text').execute();
  }
  await db.schema
    .createTable('container_update_config')
    .addColumn('host_id', 'text', (c) => c.notNull())
    .addColumn('container_name', 'text', (c) => c.notNull())
    .addColumn('update_policy', 'text')
    .addColumn('changelog_url', 'text')
    .addColumn('registry_page_url', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('container_update_config_pk', ['host_id', 'container_name'])
    .execute();
  await db.schema
    .createTable('update_policies')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('update_policies_unique', ['category', 'pattern'])
    .execute();
  const now = new Date().toISOString();
  const seed = Object.entries(DEFAULT_POLICY_PATTERNS).flatMap(([category, patterns]) =>
    patterns.map((pattern) => ({ category, pattern, enabled: 1, created_at: now })),
  );
  await (db as Kysely<{ update_policies: Record<string, unknown> }>)
    .insertInto('update_policies')
    .values(seed)
    .execute();
  await db.schema
    .createTable('registry_credentials')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('registry_url', 'text', (c) => c.notNull().unique())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('registry_credentials').execute();
  await db.schema.dropTable('update_policies').execute();
  await db.schema.dropTable('container_update_config').execute();
  for (const column of [
    'alerted_digest',
    'previous_image_id',
    'previous_image',
    'failed_digest',
    'last_error',
    'latest_image',
  ]) {
    await db.schema.alterTable('container_updates').dropColumn(column).execute();
  }
}
