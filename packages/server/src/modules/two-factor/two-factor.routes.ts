import {
  disableTwoFactorRequestSchema,
  emptyBodySchema,
  okSchema,
  recoveryCodesSchema,
  twoFactorCodeRequestSchema,
  twoFactorEnrolmentSchema,
  twoFactorPolicySchema,
  twoFactorStatusSchema,
  userParamsSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../auth/index.js';
import type { TwoFactorService } from './two-factor.service.js';

/** Routes a user held to enrolment may still call (with sign-out and /me). */
const enrolling = { allowEnrolment: true };

/**
 * The caller's own two-factor sign-in (`account`: a session, never an API key), the admin's
 * policy of roles that must use it, and the admin's reset for a lost device.
 */
export function twoFactorRoutes(app: FastifyInstance, opts: { twoFactor: TwoFactorService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { twoFactor } = opts;

  api.get(
    '/account/two-factor',
    { config: enrolling, schema: { response: { 200: twoFactorStatusSchema } } },
    (request) => {
      const session = sessionOf(request);
      return twoFactor.status(session.user, session.method ?? 'password');
    },
  );
  api.post(
    '/account/two-factor/enrol',
    {
      config: enrolling,
      schema: { body: emptyBodySchema, response: { 200: twoFactorEnrolmentSchema } },
    },
    (request) => twoFactor.startEnrolment(sessionOf(request).user),
  );
  api.post(
    '/account/two-factor/confirm',
    {
      config: enrolling,
      schema: { body: twoFactorCodeRequestSchema, response: { 200: recoveryCodesSchema } },
    },
    async (request) => ({
      recovery_codes: await twoFactor.confirm(sessionOf(request).user, request.body.code),
    }),
  );
  api.post(
    '/account/two-factor/disable',
    { schema: { body: disableTwoFactorRequestSchema, response: { 200: okSchema } } },
    async (request) => {
      await twoFactor.disable(sessionOf(request).user, request.body, request.ip);
      return { ok: true as const };
    },
  );
  api.post(
    '/account/two-factor/recovery-codes',
    { schema: { body: twoFactorCodeRequestSchema, response: { 200: recoveryCodesSchema } } },
    async (request) => ({
      recovery_codes: await twoFactor.regenerateRecoveryCodes(
        sessionOf(request).user,
        request.body.code,
      ),
    }),
  );

  api.get('/settings/two-factor', { schema: { response: { 200: twoFactorPolicySchema } } }, () =>
    twoFactor.policy(),
  );
  api.put(
    '/settings/two-factor',
    { schema: { body: twoFactorPolicySchema, response: { 200: twoFactorPolicySchema } } },
    (request) => twoFactor.setPolicy(request.body),
  );

  api.post(
    '/users/:id/reset-two-factor',
    { schema: { params: userParamsSchema, body: emptyBodySchema, response: { 200: okSchema } } },
    async (request) => {
      await twoFactor.reset(request.params.id);
      return { ok: true as const };
    },
  );
}
