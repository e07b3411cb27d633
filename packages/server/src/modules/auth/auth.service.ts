import { createHash, randomBytes } from 'node:crypto';
import type { User } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, tooManyRequests, unauthorized } from '../../platform/http-errors.js';
import type { AuthStore, UserRow } from './auth.store.js';
import { LoginThrottle } from './login-throttle.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.js';

/** Sessions live this long after their last use. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionContext {
  user: User;
  tokenHash: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const iso = (ms: number) => new Date(ms).toISOString();

/** The API shape of a user: never the password hash. */
export function toUserResponse(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    display_name: row.display_name,
    is_first_login: row.is_first_login === 1,
  };
}

/** Sign-in, sessions, password and profile rules. */
export class AuthService {
  constructor(
    private readonly store: AuthStore,
    private readonly log: FastifyBaseLogger,
    private readonly throttle = new LoginThrottle(),
    private readonly now: () => number = Date.now,
  ) {}

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

  /** Verifies credentials and opens a session; returns the cookie token. */
  async login(
    username: string,
    password: string,
    address: string,
  ): Promise<{ user: User; token: string }> {
    if (this.throttle.isBlocked(address, username)) {
      throw tooManyRequests('Too many login attempts. Please try again later.');
    }
    const row = await this.store.findUserByName(username);
    const valid = await verifyPassword(row?.password_hash ?? (await dummyPasswordHash()), password);
    if (row === undefined || !valid) {
      this.throttle.recordFailure(address, username);
      throw unauthorized('Invalid username or password');
    }
    this.throttle.recordSuccess(username);
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.store.insertSession({
      token_hash: hashToken(token),
      user_id: row.id,
      now: iso(now),
      expires_at: iso(now + SESSION_IDLE_MS),
    });
    return { user: toUserResponse(row), token };
  }

  /** The session behind a cookie token, or null when it is unknown or expired. */
  async authenticate(token: string | undefined): Promise<SessionContext | null> {
    if (token === undefined || token.length === 0 || token.length > 200) return null;
    const tokenHash = hashToken(token);
    const session = await this.store.findSession(tokenHash);
    const now = this.now();
    if (session === undefined) return null;
    if (Date.parse(session.expires_at) <= now) {
      await this.store.deleteSession(tokenHash);
      return null;
    }
    const row = await this.store.findUserById(session.user_id);
    if (row === undefined) return null;
    if (now - Date.parse(session.last_seen_at) > TOUCH_INTERVAL_MS) {
      await this.store.touchSession(tokenHash, iso(now), iso(now + SESSION_IDLE_MS));
    }
    return { user: toUserResponse(row), tokenHash };
  }

  async logout(tokenHash: string): Promise<void> {
    await this.store.deleteSession(tokenHash);
  }

  /** Changes the password, clears is_first_login and signs out the user's other sessions. */
  async changePassword(session: SessionContext, current: string, next: string): Promise<void> {
    const row = await this.store.findUserById(session.user.id);
    if (row === undefined || !(await verifyPassword(row.password_hash, current))) {
      throw unauthorized('Current password is incorrect');
    }
    if (current === next) {
      throw badRequest('new_password: New password must be different from the current password');
    }
    await this.store.updatePassword(row.id, await hashPassword(next), iso(this.now()));
    await this.store.deleteOtherSessions(row.id, session.tokenHash);
  }

  async updateProfile(userId: number, username: string, displayName: string | null): Promise<User> {
    const taken = await this.store.findUserByName(username);
    if (taken !== undefined && taken.id !== userId) throw badRequest('Username already taken');
    await this.store.updateProfile(userId, username, displayName, iso(this.now()));
    const row = await this.store.findUserById(userId);
    if (row === undefined) throw unauthorized();
    return toUserResponse(row);
  }

  async pruneExpiredSessions(): Promise<void> {
    await this.store.deleteExpiredSessions(iso(this.now()));
  }
}
