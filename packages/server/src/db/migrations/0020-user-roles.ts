import type { Kysely } from 'kysely';

/**
 * Users get a role, a disabled flag and an optional email. Every existing user becomes an
 * admin: before roles there was one account, and it could do everything.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('admin'))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('email', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['email', 'disabled', 'role']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
