import {
  changePasswordRequestSchema,
  emptyBodySchema,
  loginRequestSchema,
  loginResponseSchema,
  okSchema,
  updateProfileRequestSchema,
} from '@berth/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SESSION_COOKIE, sessionOf } from './auth.guard.js';
import { SESSION_MAX_AGE_MS, type AuthService, type ClientInfo } from './auth.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  secureCookies: boolean;
  /** Lets the live channel close the sockets of a session that ended (logout, password change). */
  onSessionEnded?: (tokenHash: string) => void;
}

const COOKIE_MAX_AGE_S = SESSION_MAX_AGE_MS / 1000;

export function cookieOptions(request: FastifyRequest, secureCookies: boolean) {
  return {
    path: '/',
    httpOnly: true,
    // Strict: no other site, not even a link from one, makes the browser send the session.
    sameSite: 'strict' as const,
    secure: secureCookies || request.protocol === 'https',
  };
}

/** Where a request comes from, as sessions keep it. */
export function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { address: request.ip, userAgent: typeof agent === 'string' ? agent : null };
}

/** POST /v2/auth/login: the only auth route reachable without a session. */
export function publicAuthRoutes(app: FastifyInstance, opts: AuthRoutesOptions): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/v2/auth/login',
      { schema: { body: loginRequestSchema, response: { 200: loginResponseSchema } } },
      async (request, reply) => {
        const { user, token } = await opts.auth.login(
          request.body.username,
          request.body.password,
          clientOf(request),
          request.body.second_factor_code,
        );
        void reply.setCookie(SESSION_COOKIE, token, {
          ...cookieOptions(request, opts.secureCookies),
          maxAge: COOKIE_MAX_AGE_S,
        });
        return { user };
      },
    );
}

/** Session routes; registered behind the session guard. */
export function protectedAuthRoutes(app: FastifyInstance, opts: AuthRoutesOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Also open to a user held to two-factor enrolment: sign out, read /me, change the password.
  const allowFirstLogin = { allowFirstLogin: true, allowEnrolment: true };

  api.post(
    '/v2/auth/logout',
    { config: allowFirstLogin, schema: { body: emptyBodySchema, response: { 200: okSchema } } },
    async (request, reply: FastifyReply) => {
      const { tokenHash } = sessionOf(request);
      await opts.auth.logout(tokenHash);
      opts.onSessionEnded?.(tokenHash);
      void reply.clearCookie(SESSION_COOKIE, cookieOptions(request, opts.secureCookies));
      return { ok: true as const };
    },
  );

  api.get(
    '/v2/auth/me',
    { config: allowFirstLogin, schema: { response: { 200: loginResponseSchema } } },
    (request) => ({ user: sessionOf(request).user }),
  );

  api.post(
    '/v2/auth/change-password',
    {
      config: allowFirstLogin,
      schema: { body: changePasswordRequestSchema, response: { 200: okSchema } },
    },
    async (request) => {
      const { current_password, new_password } = request.body;
      const ended = await opts.auth.changePassword(
        sessionOf(request),
        current_password,
        new_password,
        request.ip,
      );
      for (const tokenHash of ended) opts.onSessionEnded?.(tokenHash);
      return { ok: true as const };
    },
  );

  api.post(
    '/v2/auth/update-profile',
    { schema: { body: updateProfileRequestSchema, response: { 200: loginResponseSchema } } },
    async (request) => {
      const { username, display_name } = request.body;
      const displayName = display_name === undefined || display_name === '' ? null : display_name;
      const user = await opts.auth.updateProfile(sessionOf(request).user.id, username, displayName);
      return { user };
    },
  );
}
