import type { Kysely } from 'kysely';

/**
 * What an agent said of itself when it last connected (its capabilities; its version was
 * already kept), whether that connection came over plain ws:// (the host list warns), and
 * why Berth last refused it (an incompatible protocol), shown on its host until one connects;
 * and the hash of a secret being rotated to, valid beside the old one until the agent uses
 * one of them (a rotation cut between the agent storing it and Berth swapping never locks
 * the agent out).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('agents')
    .addColumn('capabilities', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.alterTable('agents').addColumn('insecure', 'integer').execute();
  await db.schema.alterTable('agents').addColumn('refused_reason', 'text').execute();
  await db.schema.alterTable('agents').addColumn('pending_secret_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('agents').dropColumn('pending_secret_hash').execute();
  await db.schema.alterTable('agents').dropColumn('refused_reason').execute();
  await db.schema.alterTable('agents').dropColumn('insecure').execute();
  await db.schema.alterTable('agents').dropColumn('capabilities').execute();
}
