import type { Kysely } from 'kysely';

/**
 * Indexes for the alerts page and its counts at 100,000 stored alerts: every filter the page
 * sends is answered newest first straight from an index (no sort of the matching rows), and
 * the counts are one pass over (state, severity) without reading a row. The single-column
 * indexes they replace were prefixes of them.
 */
const ADDED: [name: string, columns: string[]][] = [
  ['alerts_state_severity_last_seen', ['state', 'severity', 'last_seen']],
  ['alerts_severity_last_seen', ['severity', 'last_seen']],
  ['alerts_scope_last_seen', ['scope_id', 'last_seen']],
  ['alerts_rule_last_seen', ['rule_id', 'last_seen']],
  ['alerts_host_last_seen', ['host_id', 'last_seen']],
];
const REPLACED: [name: string, columns: string[]][] = [
  ['alerts_state', ['state']],
  ['alerts_scope', ['scope_id']],
  ['alerts_rule', ['rule_id']],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of ADDED)
    await db.schema.createIndex(name).on('alerts').columns(columns).execute();
  for (const [name] of REPLACED) await db.schema.dropIndex(name).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of REPLACED)
    await db.schema.createIndex(name).on('alerts').columns(columns).execute();
  for (const [name] of ADDED) await db.schema.dropIndex(name).execute();
}
