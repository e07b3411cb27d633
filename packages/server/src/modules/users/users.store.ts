import type { Db } from '../../db/database.js';

export interface ManagedUserRow {
  id: number;
  username: string;
  display_name: string | null;
  email: string | null;
  role: string;
  disabled: number;
  is_first_login: number;
  /** JSON array of host tags; [] for every host. */
  host_tags: string;
  created_at: string;
}

const columns = [
  'id',
  'username',
  'display_name',
  'email',
  'role',
  'disabled',
  'is_first_login',
  'host_tags',
  'created_at',
] as const;

/** Queries on users as an admin manages them (sign-in itself stays in the auth module). */
export function createUsersStore(db: Db) {
  return {
    list: (): Promise<ManagedUserRow[]> =>
      db.selectFrom('users').select(columns).orderBy('username').execute(),

    byId: (id: number): Promise<ManagedUserRow | undefined> =>
      db.selectFrom('users').select(columns).where('id', '=', id).executeTakeFirst(),

    byName: (username: string): Promise<ManagedUserRow | undefined> =>
      db.selectFrom('users').select(columns).where('username', '=', username).executeTakeFirst(),

    insert: async (user: {
      username: string;
      display_name: string | null;
      email: string | null;
      role: string;
      host_tags: string;
      password_hash: string;
      /** False for a user made by single sign-on: there is no one-time password to change. */
      first_login?: boolean;
      now: string;
    }) =>
      (
        await db
          .insertInto('users')
          .values({
            username: user.username,
            display_name: user.display_name,
            email: user.email,
            role: user.role,
            host_tags: user.host_tags,
            disabled: 0,
            password_hash: user.password_hash,
            is_first_login: user.first_login === false ? 0 : 1,
            created_at: user.now,
            updated_at: user.now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,

    update: (
      id: number,
      changes: Partial<{
        display_name: string | null;
        email: string | null;
        role: string;
        disabled: number;
        host_tags: string;
      }>,
      now: string,
    ) =>
      db
        .updateTable('users')
        .set({ ...changes, updated_at: now })
        .where('id', '=', id)
        .execute(),

    setOneTimePassword: (id: number, passwordHash: string, now: string) =>
      db
        .updateTable('users')
        .set({ password_hash: passwordHash, is_first_login: 1, updated_at: now })
        .where('id', '=', id)
        .execute(),

    /** A password nobody holds, replacing a one-time password nobody changed yet. */
    retirePassword: (id: number, passwordHash: string, now: string) =>
      db
        .updateTable('users')
        .set({ password_hash: passwordHash, is_first_login: 0, updated_at: now })
        .where('id', '=', id)
        .execute(),

    remove: (id: number) => db.deleteFrom('users').where('id', '=', id).execute(),

    /** Enabled admins other than this user: the ones left if it stopped being one. */
    otherEnabledAdmins: async (id: number) =>
      Number(
        (
          await db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('role', '=', 'admin')
            .where('disabled', '=', 0)
            .where('id', '!=', id)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    /** Deletes the user's sessions; returns their token hashes, so their sockets close too. */
    endSessions: async (userId: number) =>
      (
        await db
          .deleteFrom('sessions')
          .where('user_id', '=', userId)
          .returning('token_hash')
          .execute()
      ).map((row) => row.token_hash),
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
