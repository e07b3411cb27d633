import type { Kysely } from 'kysely';

/**
 * HTTP health checks, one per container, keyed by host and container name like the other
 * container settings so a recreated container keeps its check. Headers and auth config are
 * stored sealed (SecretBox); the status columns are written by the checker.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('container_http_health_checks')
    .addColumn('host_id', 'text', (c) => c.notNull().references('hosts.id').onDelete('cascade'))
    .addColumn('container_name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('method', 'text', (c) => c.notNull().defaultTo('GET'))
    .addColumn('expected_status_codes', 'text', (c) => c.notNull().defaultTo('200'))
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('check_interval_seconds', 'integer', (c) => c.notNull().defaultTo(60))
    .addColumn('follow_redirects', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('verify_ssl', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('headers_sealed', 'text')
    .addColumn('auth_sealed', 'text')
    .addColumn('auto_restart_on_failure', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failure_threshold', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('success_threshold', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_restart_attempts', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('restart_retry_delay_seconds', 'integer', (c) => c.notNull().defaultTo(120))
    .addColumn('current_status', 'text', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('last_checked_at', 'text')
    .addColumn('last_success_at', 'text')
    .addColumn('last_failure_at', 'text')
    .addColumn('consecutive_successes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_response_time_ms', 'integer')
    .addColumn('last_error_message', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('container_http_health_checks_pk', ['host_id', 'container_name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('container_http_health_checks').execute();
}
