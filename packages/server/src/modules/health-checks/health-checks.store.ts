import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';

/** One row of container_http_health_checks (migration 0010); 0/1 integers for booleans. */
export interface HealthCheckTable {
  host_id: string;
  container_name: string;
  enabled: number;
  url: string;
  method: string;
  expected_status_codes: string;
  timeout_seconds: number;
  check_interval_seconds: number;
  follow_redirects: number;
  verify_ssl: number;
  /** SecretBox-sealed JSON object of header name to value. */
  headers_sealed: string | null;
  /** SecretBox-sealed JSON auth config. */
  auth_sealed: string | null;
  auto_restart_on_failure: number;
  failure_threshold: number;
  success_threshold: number;
  max_restart_attempts: number;
  restart_retry_delay_seconds: number;
  current_status: string;
  last_checked_at: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  consecutive_successes: number;
  consecutive_failures: number;
  last_response_time_ms: number | null;
  last_error_message: string | null;
  updated_at: string;
}
export type HealthCheckRow = Selectable<HealthCheckTable>;
export type HealthStatusColumns = Pick<
  HealthCheckRow,
  | 'current_status'
  | 'last_checked_at'
  | 'last_success_at'
  | 'last_failure_at'
  | 'consecutive_successes'
  | 'consecutive_failures'
  | 'last_response_time_ms'
  | 'last_error_message'
>;

const TABLE = 'container_http_health_checks';

/** The checks' table; the module declares its own table so the shared schema stays untouched. */
export function createHealthChecksStore(base: Db) {
  const db = base.$extendTables<{ [TABLE]: HealthCheckTable }>();
  return {
    listAll: (): Promise<HealthCheckRow[]> => db.selectFrom(TABLE).selectAll().execute(),

    upsert: async (row: HealthCheckRow): Promise<void> => {
      const rest: Partial<HealthCheckRow> = { ...row };
      delete rest.host_id;
      delete rest.container_name;
      await db
        .insertInto(TABLE)
        .values(row)
        .onConflict((oc) => oc.columns(['host_id', 'container_name']).doUpdateSet(rest))
        .execute();
    },

    /** Writes the status of many checks in one transaction (the checker's periodic flush). */
    saveStatuses: async (
      rows: ({ host_id: string; container_name: string } & HealthStatusColumns)[],
    ): Promise<void> => {
      if (rows.length === 0) return;
      await db.transaction().execute(async (tx) => {
        for (const { host_id, container_name, ...status } of rows)
          await tx
            .updateTable(TABLE)
            .set(status)
            .where('host_id', '=', host_id)
            .where('container_name', '=', container_name)
            .execute();
      });
    },

    /** Rows of hosts that are gone (the cascade already removed them): for tests. */
    count: async (): Promise<number> =>
      Number(
        (
          await db
            .selectFrom(TABLE)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n ?? 0,
      ),
  };
}

export type HealthChecksStore = ReturnType<typeof createHealthChecksStore>;
