import { createHash, randomBytes } from 'node:crypto';
import { USER_ROLES, type User, type UserRole } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import {
  badRequest,
  HttpError,
  tooManyRequests,
  unauthorized,
} from '../../platform/http-errors.js';
import type { AuthStore, UserRow } from './auth.store.js';
import { LoginThrottle } from './login-throttle.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.js';

/** Sessions live this long after their last use. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** And never longer than this after sign-in, however busy (the cookie's max age too). */
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
const LOGIN_LIMITED = 'Too many login attempts. Please try again later.';
const PASSWORD_LIMITED = 'Too many password attempts. Please try again later.';
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface AuthServiceOptions {
  loginThrottle?: LoginThrottle;
  passwordThrottle?: LoginThrottle;
  now?: () => number;
}

/** Where a sign-in comes from: what the sessions list shows and the audit log keeps. */
export interface ClientInfo {
  address: string;
  userAgent: string | null;
}

/** How a session was opened. */
export type SignInMethod = 'password' | 'sso';

/** What a second factor says of a password sign-in. */
export type SecondFactorVerdict = 'ok' | 'missing' | 'wrong';

/**
 * Checks other modules add to password sign-in, after the password proved right. Kept as
 * ports so auth depends on neither single sign-on nor two-factor.
 */
export interface SignInChecks {
  /** Throws (403 with its reason) when password sign-in is off for this user. */
  passwordSignIn?(user: User): Promise<void>;
  /** The user's second factor against the code sent with the password, when there is one. */
  secondFactor?(user: User, code: string | undefined): Promise<SecondFactorVerdict>;
  /** Why a signed-in session may only enrol a second factor (its role requires one), or null. */
  sessionHold?(user: User, method: SignInMethod): Promise<SessionHold | null>;
}

/** What the guard answers (403 with this detail and code) on routes a held session may not use. */
export interface SessionHold {
  detail: string;
  code: string;
}

export const SECOND_FACTOR_REQUIRED = 'second_factor_required';

export interface SessionContext {
  user: User;
  tokenHash: string;
  /** How a cookie session was opened; absent for API keys. */
  method?: SignInMethod;
  /** Set when the session may only enrol a second factor (see SignInChecks.sessionHold). */
  hold?: SessionHold | null;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const iso = (ms: number) => new Date(ms).toISOString();

/** A stored role; anything unknown reads as the least one, never as more. */
export const roleOf = (role: string): UserRole =>
  (USER_ROLES as readonly string[]).includes(role) ? (role as UserRole) : 'viewer';

/** The API shape of a user: never the password hash. */
export function toUserResponse(row: Omit<UserRow, 'password_hash' | 'disabled'>): User {
  return {
    id: row.id,
    username: row.username,
    display_name: row.display_name,
    is_first_login: row.is_first_login === 1,
    role: roleOf(row.role),
    host_tags: JSON.parse(row.host_tags) as string[],
  };
}

/** Sign-in, sessions, password and profile rules. */
export class AuthService {
  private readonly loginThrottle: LoginThrottle;
  /** Wrong current passwords, per user and address: a stolen session cannot guess at speed. */
  private readonly passwordThrottle: LoginThrottle;
  private readonly now: () => number;
  private checks: SignInChecks = {};

  constructor(
    private readonly store: AuthStore,
    private readonly log: FastifyBaseLogger,
    options: AuthServiceOptions = {},
  ) {
    this.loginThrottle = options.loginThrottle ?? new LoginThrottle();
    this.passwordThrottle = options.passwordThrottle ?? new LoginThrottle();
    this.now = options.now ?? Date.now;
  }

  /**
   * Creates the first user on an empty database. Without a configured password a random
   * one is generated and printed once; it must be changed at first sign-in either way.
   */
  async ensureBootstrapAdmin(
    username: string,
    configuredPassword: string | undefined,
  ): Promise<void> {
    if ((await this.store.countUsers()) > 0) return;
    const password = configuredPassword ?? randomBytes(12).toString('base64url');
    await this.store.insertUser({
      username,
      password_hash: await hashPassword(password),
      now: iso(this.now()),
    });
    if (configuredPassword === undefined) {
      // Printed once, on the start that creates the user; it is never logged again.
      this.log.warn(`Created admin user "${username}" with generated password: ${password}`);
    } else {
      this.log.info(`Created admin user "${username}" from BERTH_ADMIN_PASSWORD`);
    }
  }

  /** Adds the checks single sign-on and two-factor make on password sign-in. */
  useSignInChecks(checks: SignInChecks): void {
    this.checks = { ...this.checks, ...checks };
  }

  /**
   * Verifies credentials (and the second factor when the user has one) and opens a session;
   * returns the cookie token. A right password without a needed code answers 401 with
   * `code: second_factor_required`, and does not count against the sign-in limits; a wrong
   * code counts like a wrong password.
   */
  async login(
    username: string,
    password: string,
    client: ClientInfo,
    secondFactorCode?: string,
  ): Promise<{ user: User; token: string }> {
    const attempt = this.loginThrottle.begin(client.address, username);
    if (attempt === null) throw tooManyRequests(LOGIN_LIMITED);
    await attempt.wait();
    const row = await this.store.findUserByName(username);
    const valid = await verifyPassword(row?.password_hash ?? (await dummyPasswordHash()), password);
    // A failure keeps its reservation: it is what the throttle counts.
    if (row === undefined || !valid) throw unauthorized('Invalid username or password');
    // Said only to whoever knows the password: it tells them to ask an admin.
    if (row.disabled === 1) throw unauthorized('This account is disabled');
    const user = toUserResponse(row);
    await this.checks.passwordSignIn?.(user);
    const factor = (await this.checks.secondFactor?.(user, secondFactorCode)) ?? 'ok';
    if (factor === 'missing') {
      attempt.abandoned();
      throw new HttpError(401, 'Two-factor code required', {}, SECOND_FACTOR_REQUIRED);
    }
    if (factor === 'wrong') throw unauthorized('Invalid two-factor code');
    attempt.succeeded();
    return { user, token: await this.openSession(row.id, client, 'password') };
  }

  /** Opens a session for a user who proved who they are; returns the cookie token. */
  async openSession(userId: number, client: ClientInfo, method: SignInMethod): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.store.insertSession({
      token_hash: hashToken(token),
      user_id: userId,
      now: iso(now),
      expires_at: iso(now + SESSION_IDLE_MS),
      address: client.address,
      user_agent: client.userAgent,
      method,
    });
    return token;
  }

  /** The session behind a cookie token, or null when it is unknown or expired. */
  async authenticate(token: string | undefined): Promise<SessionContext | null> {
    if (token === undefined || token.length === 0 || token.length > 200) return null;
    const tokenHash = hashToken(token);
    const session = await this.liveSession(tokenHash);
    if (session === null) return null;
    const row = await this.store.findUserById(session.user_id);
    if (row === undefined || row.disabled === 1) return null;
    const now = this.now();
    if (now - Date.parse(session.last_seen_at) > TOUCH_INTERVAL_MS) {
      const expiresAt = Math.min(now + SESSION_IDLE_MS, session.endsAt);
      await this.store.touchSession(tokenHash, iso(now), iso(expiresAt));
    }
    const user = toUserResponse(row);
    const method: SignInMethod = session.auth_method === 'sso' ? 'sso' : 'password';
    return {
      user,
      tokenHash,
      method,
      hold: (await this.checks.sessionHold?.(user, method)) ?? null,
    };
  }

  /**
   * Whether `password` is the user's, for a change that asks for it again (turning two-factor
   * off); counted with wrong current passwords, so a stolen session cannot guess at speed.
   */
  async checkPassword(userId: number, password: string, address: string): Promise<boolean> {
    const attempt = this.passwordThrottle.begin(address, `#${userId}`);
    if (attempt === null) throw tooManyRequests(PASSWORD_LIMITED);
    await attempt.wait();
    const row = await this.store.findUserById(userId);
    if (row === undefined || !(await verifyPassword(row.password_hash, password))) return false;
    attempt.succeeded();
    return true;
  }

  /** For open sockets: false once the session expired or was deleted. Never extends it. */
  async isSessionAlive(tokenHash: string): Promise<boolean> {
    return (await this.liveSession(tokenHash)) !== null;
  }

  /** The stored session unless it passed its idle or absolute end (then it is deleted). */
  private async liveSession(tokenHash: string) {
    const session = await this.store.findSession(tokenHash);
    if (session === undefined) return null;
    const endsAt = Date.parse(session.created_at) + SESSION_MAX_AGE_MS;
    const now = this.now();
    if (Date.parse(session.expires_at) <= now || endsAt <= now) {
      await this.store.deleteSession(tokenHash);
      return null;
    }
    return { ...session, endsAt };
  }

  /** A user by id (an API key's owner), or null when the user is gone or disabled. */
  async user(id: number): Promise<User | null> {
    const row = await this.store.findUserById(id);
    return row === undefined || row.disabled === 1 ? null : toUserResponse(row);
  }

  async logout(tokenHash: string): Promise<void> {
    await this.store.deleteSession(tokenHash);
  }

  /**
   * Changes the password, clears is_first_login and signs out the user's other sessions;
   * returns their token hashes so their sockets can be closed too.
   */
  async changePassword(
    session: SessionContext,
    current: string,
    next: string,
    address: string,
  ): Promise<string[]> {
    const attempt = this.passwordThrottle.begin(address, `#${session.user.id}`);
    if (attempt === null) throw tooManyRequests(PASSWORD_LIMITED);
    await attempt.wait();
    const row = await this.store.findUserById(session.user.id);
    if (row === undefined || !(await verifyPassword(row.password_hash, current))) {
      throw unauthorized('Current password is incorrect');
    }
    attempt.succeeded();
    if (current === next) {
      throw badRequest('new_password: New password must be different from the current password');
    }
    await this.store.updatePassword(row.id, await hashPassword(next), iso(this.now()));
    return this.store.deleteOtherSessions(row.id, session.tokenHash);
  }

  async updateProfile(userId: number, username: string, displayName: string | null): Promise<User> {
    const taken = await this.store.findUserByName(username);
    if (taken !== undefined && taken.id !== userId) throw badRequest('Username already taken');
    await this.store.updateProfile(userId, username, displayName, iso(this.now()));
    const row = await this.store.findUserById(userId);
    if (row === undefined) throw unauthorized();
    return toUserResponse(row);
  }

  /** Deletes at most `limit` expired sessions (one bounded chunk); answers how many went. */
  pruneExpiredSessions(limit = 2000): Promise<number> {
    return this.store.deleteExpiredSessions(iso(this.now()), limit);
  }
}
