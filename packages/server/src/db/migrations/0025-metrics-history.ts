import { sql, type Kysely } from 'kysely';

/**
 * Metrics history (decision 036). A series is a host ('' name) or a container by name, so a
 * removed container's points stay under its name. Points are one row per series, tier and
 * bucket start (Unix seconds) with scaled integers; the 10 s tier leaves *_lo and *_hi empty.
 * Not tied to hosts by a foreign key: a removed host's history ages out like the rest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE metric_series (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    host_id TEXT NOT NULL,
    name TEXT NOT NULL,
    container_id TEXT,
    UNIQUE (host_id, name)
  )`.execute(db);
  const gauges = ['cpu', 'mem', 'mem_pct', 'rx', 'tx', 'br', 'bw', 'disk']
    .map((g) => `${g} INTEGER, ${g}_lo INTEGER, ${g}_hi INTEGER`)
    .join(', ');
  await sql
    .raw(
      `CREATE TABLE metric_points (
    tier INTEGER NOT NULL,
    series_id INTEGER NOT NULL,
    t INTEGER NOT NULL,
    n INTEGER NOT NULL,
    ${gauges},
    restarts INTEGER,
    health INTEGER,
    PRIMARY KEY (tier, series_id, t)
  ) WITHOUT ROWID`,
    )
    .execute(db);
  // Roll-ups and retention walk a tier by time across every series.
  await sql`CREATE INDEX metric_points_by_time ON metric_points (tier, t)`.execute(db);
  await sql`CREATE TABLE metric_rollups (
    tier INTEGER PRIMARY KEY,
    done_until INTEGER NOT NULL
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE metric_rollups`.execute(db);
  await sql`DROP TABLE metric_points`.execute(db);
  await sql`DROP TABLE metric_series`.execute(db);
}
