import type { Generated } from 'kysely';

/** Table types of the database; each domain's store queries only its own tables. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  user_preferences: UserPreferencesTable;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  display_name: string | null;
  password_hash: string;
  /** 1 until the user has changed the bootstrap password. */
  is_first_login: number;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** sha256 of the random token in the cookie; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface SettingsTable {
  key: string;
  /** JSON-encoded value. */
  value: string;
}

export interface UserPreferencesTable {
  user_id: number;
  /** JSON object of the preference fields the user has set. */
  data: string;
  updated_at: string;
}
