import {
  ssoCallbackQuerySchema,
  ssoLoginInfoSchema,
  ssoSettingsUpdateSchema,
  ssoSettingsViewSchema,
  ssoTestRequestSchema,
  ssoTestResultSchema,
} from '@berth/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientOf, SESSION_COOKIE, SESSION_MAX_AGE_MS } from '../auth/index.js';
import { reasonOf } from './sso.oidc.js';
import { SsoRefusal } from './sso.ports.js';
import { ERROR_TTL_MS, FLOW_TTL_MS, type SsoService } from './sso.service.js';

export interface SsoRoutesOptions {
  sso: SsoService;
  secureCookies: boolean;
}

export const FLOW_COOKIE = 'berth_sso_flow';
export const ERROR_COOKIE = 'berth_sso_error';
export const CALLBACK_PATH = '/api/v2/auth/sso/callback';
const ERROR_PATH = '/api/v2/auth/sso';
const LOGIN_PAGE = '/login';

/** The address the provider sends the browser back to: register it there. */
export const redirectUriOf = (request: FastifyRequest) =>
  `${request.protocol}://${request.host}${CALLBACK_PATH}`;

/**
 * The cookies of a sign-on in progress and of its failure: Lax, since the provider's redirect
 * back is a cross-site navigation that a Strict cookie would not come with.
 */
function laxCookie(request: FastifyRequest, secure: boolean, path: string, ttlMs: number) {
  return {
    path,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secure || request.protocol === 'https',
    maxAge: ttlMs / 1000,
  };
}

/**
 * Signed in: a same-origin page that moves on to the app. A redirect would keep the chain
 * cross-site, and the Strict session cookie would not be sent on the app's first load.
 */
const SIGNED_IN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/">
<title>Berth</title></head>
<body><p>Signed in. <a href="/">Continue to Berth</a></p></body></html>`;

/** The login page's view of single sign-on, the start and the provider's callback. */
export function ssoPublicRoutes(app: FastifyInstance, opts: SsoRoutesOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { sso } = opts;

  /** Back to the login page, which reads the reason once from its cookie. */
  const refuse = (request: FastifyRequest, reply: FastifyReply, err: unknown) => {
    const refusal = err instanceof SsoRefusal ? err : null;
    const reason = refusal?.message ?? `Single sign-on failed: ${reasonOf(err)}`;
    if (refusal === null) request.log.error({ err }, 'single sign-on failed');
    if (refusal?.audited !== false) {
      sso.record(clientOf(request), { actor: refusal?.actor ?? null, error: reason });
    }
    void reply.setCookie(
      ERROR_COOKIE,
      sso.sealError(reason),
      laxCookie(request, opts.secureCookies, ERROR_PATH, ERROR_TTL_MS),
    );
    return reply.header('cache-control', 'no-store').redirect(LOGIN_PAGE, 302);
  };

  api.get(
    '/v2/auth/sso',
    { schema: { response: { 200: ssoLoginInfoSchema } } },
    async (request, reply) => {
      const sealed = request.cookies[ERROR_COOKIE];
      const error = sso.openError(sealed);
      if (sealed !== undefined) {
        void reply.clearCookie(ERROR_COOKIE, { path: ERROR_PATH });
      }
      void reply.header('cache-control', 'no-store');
      return { ...(await sso.loginInfo()), error };
    },
  );

  api.get('/v2/auth/sso/start', async (request, reply) => {
    try {
      const { location, flow } = await sso.start(redirectUriOf(request), request.ip);
      void reply.setCookie(
        FLOW_COOKIE,
        flow,
        laxCookie(request, opts.secureCookies, CALLBACK_PATH, FLOW_TTL_MS),
      );
      return await reply.header('cache-control', 'no-store').redirect(location, 302);
    } catch (err) {
      return refuse(request, reply, err);
    }
  });

  api.get(
    '/v2/auth/sso/callback',
    { schema: { querystring: ssoCallbackQuerySchema } },
    async (request, reply) => {
      // Single use: whatever happens, this browser's flow ends here.
      void reply.clearCookie(FLOW_COOKIE, { path: CALLBACK_PATH });
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const client = clientOf(request);
      try {
        const { token, username, role } = await sso.callback(
          query,
          request.cookies[FLOW_COOKIE],
          client,
        );
        sso.record(client, { actor: username, error: null, target: `role ${role}` });
        void reply.setCookie(SESSION_COOKIE, token, {
          path: '/',
          httpOnly: true,
          sameSite: 'strict',
          secure: opts.secureCookies || request.protocol === 'https',
          maxAge: SESSION_MAX_AGE_MS / 1000,
        });
        return await reply
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(SIGNED_IN_PAGE);
      } catch (err) {
        return refuse(request, reply, err);
      }
    },
  );
}

/** Settings → Authentication → Single sign-on (admins). */
export function ssoSettingsRoutes(app: FastifyInstance, opts: SsoRoutesOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/v2/auth/sso/settings',
    { schema: { response: { 200: ssoSettingsViewSchema } } },
    async (request) => ({ settings: await opts.sso.view(), redirect_uri: redirectUriOf(request) }),
  );
  api.put(
    '/v2/auth/sso/settings',
    { schema: { body: ssoSettingsUpdateSchema, response: { 200: ssoSettingsViewSchema } } },
    async (request) => ({
      settings: await opts.sso.update(request.body),
      redirect_uri: redirectUriOf(request),
    }),
  );
  api.post(
    '/v2/auth/sso/test',
    { schema: { body: ssoTestRequestSchema, response: { 200: ssoTestResultSchema } } },
    (request) => opts.sso.test(request.body.issuer_url),
  );
}
