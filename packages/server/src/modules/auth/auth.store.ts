import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';

export interface UserRow {
  id: number;
  username: string;
  display_name: string | null;
  password_hash: string;
  is_first_login: number;
  role: string;
  disabled: number;
  /** JSON array of host tags. */
  host_tags: string;
}

const userColumns = [
  'id',
  'username',
  'display_name',
  'password_hash',
  'is_first_login',
  'role',
  'disabled',
  'host_tags',
] as const;

/** What a sessions list shows of a session (and its token hash, to mark the caller's own). */
const sessionListColumns = [
  'token_hash',
  'public_id',
  'user_id',
  'created_at',
  'last_seen_at',
  'address',
  'user_agent',
  'auth_method',
] as const;

/** Queries on users and sessions. */
export function createAuthStore(db: Db) {
  return {
    countUsers: async () =>
      Number(
        (
          await db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),

    findUserByName: (username: string): Promise<UserRow | undefined> =>
      db
        .selectFrom('users')
        .select(userColumns)
        .where('username', '=', username)
        .executeTakeFirst(),

    findUserById: (id: number): Promise<UserRow | undefined> =>
      db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst(),

    insertUser: async (user: { username: string; password_hash: string; now: string }) => {
      const row = await db
        .insertInto('users')
        .values({
          username: user.username,
          display_name: null,
          password_hash: user.password_hash,
          is_first_login: 1,
          created_at: user.now,
          updated_at: user.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    updatePassword: (id: number, passwordHash: string, now: string) =>
      db
        .updateTable('users')
        .set({ password_hash: passwordHash, is_first_login: 0, updated_at: now })
        .where('id', '=', id)
        .execute(),

    /** A new password that must be changed at the next sign-in (the forced dialog). */
    setOneTimePassword: (id: number, passwordHash: string, now: string) =>
      db
        .updateTable('users')
        .set({ password_hash: passwordHash, is_first_login: 1, updated_at: now })
        .where('id', '=', id)
        .execute(),

    listUsernames: async () =>
      (await db.selectFrom('users').select('username').orderBy('username').execute()).map(
        (row) => row.username,
      ),

    deleteSessionsOf: (userId: number) =>
      db.deleteFrom('sessions').where('user_id', '=', userId).execute(),

    updateProfile: (id: number, username: string, displayName: string | null, now: string) =>
      db
        .updateTable('users')
        .set({ username, display_name: displayName, updated_at: now })
        .where('id', '=', id)
        .execute(),

    insertSession: (s: {
      token_hash: string;
      user_id: number;
      now: string;
      expires_at: string;
      address: string;
      user_agent: string | null;
      method: string;
    }) =>
      db
        .insertInto('sessions')
        .values({
          token_hash: s.token_hash,
          public_id: randomBytes(8).toString('hex'),
          user_id: s.user_id,
          created_at: s.now,
          last_seen_at: s.now,
          expires_at: s.expires_at,
          address: s.address,
          // A header of whatever length is the caller's to send; what is kept is capped.
          user_agent: s.user_agent?.slice(0, 300) ?? null,
          auth_method: s.method,
        })
        .execute(),

    findSession: (tokenHash: string) =>
      db
        .selectFrom('sessions')
        .select([
          'token_hash',
          'user_id',
          'created_at',
          'last_seen_at',
          'expires_at',
          'auth_method',
        ])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst(),

    touchSession: (tokenHash: string, now: string, expiresAt: string) =>
      db
        .updateTable('sessions')
        .set({ last_seen_at: now, expires_at: expiresAt })
        .where('token_hash', '=', tokenHash)
        .execute(),

    deleteSession: (tokenHash: string) =>
      db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute(),

    /** Returns the token hashes it deleted, so their live sockets can be closed. */
    deleteOtherSessions: async (userId: number, keepTokenHash: string) =>
      (
        await db
          .deleteFrom('sessions')
          .where('user_id', '=', userId)
          .where('token_hash', '!=', keepTokenHash)
          .returning('token_hash')
          .execute()
      ).map((row) => row.token_hash),

    /** A user's sessions that have not expired, for their sessions list; newest use first. */
    listSessionsOf: (userId: number, now: string) =>
      db
        .selectFrom('sessions')
        .select(sessionListColumns)
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .where('public_id', 'is not', null)
        .orderBy('last_seen_at', 'desc')
        .execute(),

    /** Every user's sessions that have not expired, with the username; newest use first. */
    listAllSessions: (now: string) =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select([...sessionListColumns.map((c) => `sessions.${c}` as const), 'users.username'])
        .where('sessions.expires_at', '>', now)
        .where('sessions.public_id', 'is not', null)
        .orderBy('sessions.last_seen_at', 'desc')
        .execute(),

    /**
     * Deletes the session with this public id (only the given user's when `userId` is set);
     * returns its token hash so its sockets can be closed, or undefined when none matched.
     */
    deleteSessionByPublicId: async (publicId: string, userId: number | null) => {
      let query = db.deleteFrom('sessions').where('public_id', '=', publicId);
      if (userId !== null) query = query.where('user_id', '=', userId);
      return (await query.returning('token_hash').executeTakeFirst())?.token_hash;
    },

    /** Who a session belongs to, by its public id (for the audit log's target). */
    sessionOwner: async (publicId: string) =>
      (
        await db
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.user_id')
          .select('users.username')
          .where('sessions.public_id', '=', publicId)
          .executeTakeFirst()
      )?.username,

    /** Deletes at most `limit` expired sessions; answers how many went. */
    deleteExpiredSessions: async (now: string, limit: number): Promise<number> => {
      const r = await db
        .deleteFrom('sessions')
        .where('token_hash', 'in', (eb) =>
          eb.selectFrom('sessions').select('token_hash').where('expires_at', '<', now).limit(limit),
        )
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

export type AuthStore = ReturnType<typeof createAuthStore>;
