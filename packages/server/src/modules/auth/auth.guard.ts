import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../../platform/http-errors.js';
import type { AuthService, SessionContext } from './auth.service.js';

export const SESSION_COOKIE = 'berth_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the session guard on every protected route. */
    auth: SessionContext | null;
  }
  interface FastifyContextConfig {
    /** Routes a user may call before changing the bootstrap password. */
    allowFirstLogin?: boolean;
  }
}

/** The signed-in session of a request that passed the guard. */
export function sessionOf(request: FastifyRequest): SessionContext {
  if (request.auth === null) throw unauthorized();
  return request.auth;
}

/**
 * onRequest hook for protected routes: 401 without a valid session, and 403 until the
 * first-login password change, except on routes that allow it. Runs before the body is read.
 */
export function createSessionGuard(auth: AuthService) {
  return async function sessionGuard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const session = await auth.authenticate(request.cookies[SESSION_COOKIE]);
    if (session === null) throw unauthorized();
    if (session.user.is_first_login && request.routeOptions.config.allowFirstLogin !== true) {
      throw forbidden('Password change required');
    }
    request.auth = session;
  };
}
