import { sql, type Kysely } from 'kysely';

/**
 * Metric alert rules that compare the mean over their window read from metrics history
 * (decision 039). 0 keeps a rule on the samples Berth saw since it started, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE alert_rules ADD COLUMN look_back INTEGER NOT NULL DEFAULT 0`.execute(db);
}
