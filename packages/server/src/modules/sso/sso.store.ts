import type { SsoDefaultRole } from '@berth/contracts';
import type { Db } from '../../db/database.js';

/** The single sign-on settings as stored: the client secret sealed with the data directory's key. */
export interface StoredSsoSettings {
  enabled: boolean;
  display_name: string;
  issuer_url: string;
  client_id: string;
  client_secret_sealed: string | null;
  scopes: string;
  username_claim: string;
  role_claim: string;
  admin_values: string[];
  operator_values: string[];
  viewer_values: string[];
  default_role: SsoDefaultRole;
  auto_create: boolean;
  password_sign_in_disabled: boolean;
}

export const SSO_DEFAULTS: StoredSsoSettings = {
  enabled: false,
  display_name: '',
  issuer_url: '',
  client_id: '',
  client_secret_sealed: null,
  scopes: 'openid profile email',
  username_claim: 'preferred_username',
  role_claim: '',
  admin_values: [],
  operator_values: [],
  viewer_values: [],
  default_role: 'refuse',
  auto_create: true,
  password_sign_in_disabled: false,
};

/** One row of the settings table (key `auth_sso`); the identity links have their own table. */
const KEY = 'auth_sso';

/** The parts of a Berth user single sign-on reads and writes. */
export interface SsoUserRow {
  id: number;
  username: string;
  role: string;
  disabled: number;
  is_first_login: number;
}

const userColumns = ['id', 'username', 'role', 'disabled', 'is_first_login'] as const;

export function createSsoStore(db: Db) {
  return {
    async read(): Promise<StoredSsoSettings> {
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', KEY)
        .executeTakeFirst();
      if (row === undefined) return { ...SSO_DEFAULTS };
      return { ...SSO_DEFAULTS, ...(JSON.parse(row.value) as Partial<StoredSsoSettings>) };
    },

    async write(value: StoredSsoSettings): Promise<void> {
      const json = JSON.stringify(value);
      await db
        .insertInto('settings')
        .values({ key: KEY, value: json })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
        .execute();
    },

    /** The Berth user linked to a provider account. */
    linkedUser: (issuer: string, subject: string): Promise<SsoUserRow | undefined> =>
      db
        .selectFrom('sso_identities')
        .innerJoin('users', 'users.id', 'sso_identities.user_id')
        .select(userColumns.map((c) => `users.${c}` as const))
        .where('sso_identities.issuer', '=', issuer)
        .where('sso_identities.subject', '=', subject)
        .executeTakeFirst(),

    userByName: (username: string): Promise<SsoUserRow | undefined> =>
      db
        .selectFrom('users')
        .select(userColumns)
        .where('username', '=', username)
        .executeTakeFirst(),

    /** Whether the user already has a provider account linked (of any issuer). */
    hasLink: async (userId: number) =>
      (await db
        .selectFrom('sso_identities')
        .select('user_id')
        .where('user_id', '=', userId)
        .executeTakeFirst()) !== undefined,

    link: (issuer: string, subject: string, userId: number, now: string) =>
      db
        .insertInto('sso_identities')
        .values({ issuer, subject, user_id: userId, created_at: now, last_sign_in_at: now })
        .execute(),

    touchLink: (issuer: string, subject: string, now: string) =>
      db
        .updateTable('sso_identities')
        .set({ last_sign_in_at: now })
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .execute(),

    /**
     * A user made by a first sign-on: the password hash is of a random secret nobody holds,
     * so a password sign-in needs an admin's reset first.
     */
    createUser: async (user: {
      username: string;
      display_name: string | null;
      email: string | null;
      role: string;
      password_hash: string;
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
            password_hash: user.password_hash,
            disabled: 0,
            is_first_login: 0,
            created_at: user.now,
            updated_at: user.now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,

    /** Replaces a one-time password nobody changed yet with an unusable one. */
    retirePassword: (userId: number, passwordHash: string, now: string) =>
      db
        .updateTable('users')
        .set({ password_hash: passwordHash, is_first_login: 0, updated_at: now })
        .where('id', '=', userId)
        .execute(),

    setRole: (userId: number, role: string, now: string) =>
      db.updateTable('users').set({ role, updated_at: now }).where('id', '=', userId).execute(),

    otherEnabledAdmins: async (userId: number) =>
      Number(
        (
          await db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('role', '=', 'admin')
            .where('disabled', '=', 0)
            .where('id', '!=', userId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}

export type SsoStore = ReturnType<typeof createSsoStore>;
