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
    /** The user a provider account is linked to. */
    linkedUserId: async (issuer: string, subject: string): Promise<number | undefined> =>
      (
        await db
          .selectFrom('sso_identities')
          .select('user_id')
          .where('issuer', '=', issuer)
          .where('subject', '=', subject)
          .executeTakeFirst()
      )?.user_id,

    /** Every user with a provider account linked, for Settings → Users. */
    linkedUserIds: async (): Promise<number[]> =>
      (await db.selectFrom('sso_identities').select('user_id').distinct().execute()).map(
        (row) => row.user_id,
      ),

    /** Whether the user already has a provider account linked (of whichever issuer). */
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
  };
}

export type SsoStore = ReturnType<typeof createSsoStore>;
