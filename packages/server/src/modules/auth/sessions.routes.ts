import {
  allSessionsResponseSchema,
  emptyBodySchema,
  endedSessionsSchema,
  okSchema,
  sessionParamsSchema,
  sessionsResponseSchema,
} from '@berth/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SESSION_COOKIE, sessionOf } from './auth.guard.js';
import { cookieOptions } from './auth.routes.js';
import type { SessionsService } from './sessions.service.js';

export interface SessionsRoutesOptions {
  sessions: SessionsService;
  secureCookies: boolean;
}

/**
 * The caller's own sessions (`account`: every role, never an API key) and every user's
 * (admins; the route table lists them). Sessions are named by their public id only.
 */
export function sessionsRoutes(app: FastifyInstance, opts: SessionsRoutesOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { sessions } = opts;
  const params = sessionParamsSchema;
  // Ending the session this request came with is a sign-out: its cookie goes too.
  const signedOut = (request: FastifyRequest, reply: FastifyReply, wasCurrent: boolean) => {
    if (wasCurrent)
      void reply.clearCookie(SESSION_COOKIE, cookieOptions(request, opts.secureCookies));
    return { ok: true as const };
  };

  api.get(
    '/v2/auth/sessions',
    { schema: { response: { 200: sessionsResponseSchema } } },
    async (request) => {
      const { user, tokenHash } = sessionOf(request);
      return { sessions: await sessions.own(user.id, tokenHash) };
    },
  );
  api.delete(
    '/v2/auth/sessions/:id',
    { schema: { params, response: { 200: okSchema } } },
    async (request, reply) => {
      const { user, tokenHash } = sessionOf(request);
      return signedOut(
        request,
        reply,
        await sessions.endOwn(user.id, request.params.id, tokenHash),
      );
    },
  );
  api.post(
    '/v2/auth/sessions/end-others',
    { schema: { body: emptyBodySchema, response: { 200: endedSessionsSchema } } },
    async (request) => {
      const { user, tokenHash } = sessionOf(request);
      return { ended: await sessions.endOthers(user.id, tokenHash) };
    },
  );

  api.get(
    '/sessions',
    { schema: { response: { 200: allSessionsResponseSchema } } },
    async (request) => ({
      sessions: await sessions.all(sessionOf(request).tokenHash),
    }),
  );
  api.delete(
    '/sessions/:id',
    { schema: { params, response: { 200: okSchema } } },
    async (request, reply) =>
      signedOut(
        request,
        reply,
        await sessions.endAny(request.params.id, sessionOf(request).tokenHash),
      ),
  );
}
