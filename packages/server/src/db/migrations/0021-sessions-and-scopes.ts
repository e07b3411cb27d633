import { sql, type Kysely } from 'kysely';

/**
 * Sessions keep where they came from (address, browser, password or single sign-on) and get
 * a public id, so a user can list theirs and end one without the token's hash leaving the
 * server. Users get host tags: an empty list reaches every host, as every user did before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('public_id', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('address', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('auth_method', 'text', (c) => c.notNull().defaultTo('password'))
    .execute();
  await sql`UPDATE sessions SET public_id = lower(hex(randomblob(8)))`.execute(db);
  await db.schema
    .createIndex('sessions_public_id')
    .unique()
    .on('sessions')
    .column('public_id')
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('host_tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('host_tags').execute();
  await db.schema.dropIndex('sessions_public_id').execute();
  for (const column of ['auth_method', 'user_agent', 'address', 'public_id']) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
}
