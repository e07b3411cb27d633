import type { UserRole } from '@berth/contracts';

/** A sign-on refused: the reason is shown on the login page and kept in the audit log. */
export class SsoRefusal extends Error {
  constructor(
    message: string,
    /** Who tried, when the provider told us. */
    readonly actor: string | null = null,
    /** False for what is no sign-in attempt worth a row (SSO off, an address over its limit). */
    readonly audited = true,
  ) {
    super(message);
  }
}

/** The parts of a Berth user single sign-on reads. */
export interface SsoUserRow {
  id: number;
  username: string;
  role: string;
  disabled: number;
  is_first_login: number;
}

/** What single sign-on needs of the users module, which owns the users and their rules. */
export interface SsoUsers {
  byName(username: string): Promise<SsoUserRow | undefined>;
  byId(id: number): Promise<SsoUserRow | undefined>;
  createSignedOn(user: {
    username: string;
    display_name: string | null;
    email: string | null;
    role: UserRole;
  }): Promise<number>;
  retireOneTimePassword(id: number): Promise<void>;
  /** Saves the role and lets the user's open live sockets follow it. */
  setRoleFromProvider(id: number, role: UserRole): Promise<void>;
  isLastEnabledAdmin(id: number): Promise<boolean>;
}
