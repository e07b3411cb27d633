import type { ApiKeyScope, User } from '@berth/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AttemptWindow } from '../../platform/attempt-window.js';
import { forbidden, HttpError, tooManyRequests, unauthorized } from '../../platform/http-errors.js';
import type { AuthService, SessionContext } from './auth.service.js';
import { roleAllows, scopeAllows, scopeNeeded, type Permission } from './permissions.js';

export const SESSION_COOKIE = 'berth_session';

/** The API key a request came with: its name is what logs and the event log show. */
export interface ApiKeyIdentity {
  id: number;
  name: string;
  scope: ApiKeyScope;
}

/**
 * Who a request acts as: a signed-in session, or an API key acting for the user who made it.
 * `tokenHash` names the caller for per-caller state (a session's token hash, or `api-key:<id>`).
 */
export interface Principal extends SessionContext {
  key: ApiKeyIdentity | null;
}

/** What the guard needs of the API keys module. */
export interface ApiKeyAuthenticator {
  /** The key's identity and owner, or null for an unknown, revoked or expired key. */
  authenticate(key: string): Promise<{ key: ApiKeyIdentity; owner: SessionContext['user'] } | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard on every route that is not public. */
    auth: Principal | null;
  }
  interface FastifyContextConfig {
    /** Routes a user may call before changing the bootstrap password. */
    allowFirstLogin?: boolean;
    /** Routes a session held to two-factor enrolment may call (enrol, sign out, /me). */
    allowEnrolment?: boolean;
  }
}

/** The caller of a request that passed the guard. */
export function sessionOf(request: FastifyRequest): Principal {
  if (request.auth === null) throw unauthorized();
  return request.auth;
}

/** Who did something, as the event log and notifications name them. */
export function actorOf(request: FastifyRequest): string {
  const { user, key } = sessionOf(request);
  return key === null ? user.username : `${user.username} (API key "${key.name}")`;
}

/** 403 naming the role and what the route needs, as a key's scope is named. */
function checkRole(role: User['role'], permission: Permission, who: string): void {
  if (!roleAllows(role, permission)) {
    throw forbidden(`${who} "${role}" cannot do this; it needs "${permission}"`);
  }
}

export const VIEWER_LOGS_OFF =
  'Viewers cannot read container logs: an admin has not allowed it (Settings → System)';

/** A viewer on a route that shows logs, while the setting keeps logs from viewers: 403. */
function checkLogs(request: FastifyRequest, role: User['role'], viewerLogs: () => boolean) {
  if (role === 'viewer' && request.routeOptions.config.showsLogs === true && !viewerLogs()) {
    throw forbidden(VIEWER_LOGS_OFF);
  }
}

export interface AuthGuardOptions {
  now?: () => number;
  /** Whether viewers may read container logs (the `viewer_logs` setting); false if absent. */
  viewerLogs?: () => boolean;
}

/** Bad keys one address may send within the window before it is refused, as for sign-in. */
export const BAD_KEYS_PER_ADDRESS = 20;
const BAD_KEY_WINDOW_MS = 15 * 60 * 1000;
const KEYS_LIMITED = 'Too many failed API key attempts. Please try again later.';
const BEARER = /^Bearer(?:\s+|$)/i;

/**
 * The key in an `Authorization: Bearer` header, or null when there is none. A Bearer header
 * whose value is empty or garbled still counts as a (bad) key: it answers 401 like any other
 * bad key instead of falling back to the cookie. Other schemes (Basic from a proxy, which a
 * browser sends by itself) are not keys and leave the request to its cookie.
 */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const value = header.trim();
  const scheme = BEARER.exec(value);
  return scheme === null ? null : value.slice(scheme[0].length);
}

/**
 * onRequest hook for every /api route that is not public: 401 without a valid session or
 * key, 403 for a key whose scope does not reach the route's permission, and 403 until the
 * first-login password change, except on routes that allow it. Runs before the body is read.
 * A request with a bearer key is judged by the key alone: a cookie beside it is ignored.
 */
export function createAuthGuard(
  auth: AuthService,
  keys: ApiKeyAuthenticator,
  options: AuthGuardOptions = {},
) {
  const badKeys = new AttemptWindow(BAD_KEY_WINDOW_MS, options.now ?? Date.now);
  const viewerLogs = options.viewerLogs ?? (() => false);
  return async function authGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const permission = request.routeOptions.config.permission;
    if (permission === undefined || permission === 'public') return;
    const bearer = bearerOf(request);
    if (bearer !== null) {
      const { user, key } = await keyOwner(request, reply, bearer);
      // Like a session: after `berth reset-password` the owner's keys wait for the new password.
      if (user.is_first_login) throw forbidden('Password change required');
      if (!scopeAllows(key.scope, permission)) {
        const needed = scopeNeeded(permission);
        throw forbidden(
          needed === null
            ? 'API keys cannot call this route; sign in instead'
            : `This API key's scope is "${key.scope}"; this route needs "${needed}"`,
        );
      }
      // A key never does more than its owner may: its reach is its scope within the role.
      checkRole(user.role, permission, "The key owner's role");
      checkLogs(request, user.role, viewerLogs);
      request.auth = { user, tokenHash: `api-key:${key.id}`, key };
      return;
    }
    const session = await auth.authenticate(request.cookies[SESSION_COOKIE]);
    if (session === null) throw unauthorized();
    if (session.user.is_first_login && request.routeOptions.config.allowFirstLogin !== true) {
      throw forbidden('Password change required');
    }
    const hold = session.hold;
    if (hold != null && request.routeOptions.config.allowEnrolment !== true) {
      throw new HttpError(403, hold.detail, {}, hold.code);
    }
    checkRole(session.user.role, permission, 'Your role');
    checkLogs(request, session.user.role, viewerLogs);
    request.auth = { ...session, key: null };
  };

  async function keyOwner(request: FastifyRequest, reply: FastifyReply, bearer: string) {
    // Reserved before the lookup's await, so a parallel burst cannot slip past the count.
    if (badKeys.recent(request.ip).length >= BAD_KEYS_PER_ADDRESS) {
      throw tooManyRequests(KEYS_LIMITED, badKeys.msUntilFree(request.ip));
    }
    const attempt = badKeys.push(request.ip);
    const found = await keys.authenticate(bearer);
    // Which of unknown, revoked or expired is never said: 401 alike.
    if (found === null) throw unauthorized('Invalid API key');
    badKeys.release(request.ip, attempt);
    // Every line this request logs, its completion line too, names the key (never the key).
    const log = request.log.child({ api_key: found.key.name });
    request.log = log;
    reply.log = log;
    return { user: found.owner, key: found.key };
  }
}
