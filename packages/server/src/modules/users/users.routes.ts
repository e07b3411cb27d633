import {
  createdUserSchema,
  createUserRequestSchema,
  emptyBodySchema,
  managedUserSchema,
  okSchema,
  oneTimePasswordSchema,
  updateUserRequestSchema,
  userParamsSchema,
  usersResponseSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../auth/index.js';
import type { UsersService } from './users.service.js';

/** Settings → Users: admin only, every one of them (the route table says so). */
export function usersRoutes(app: FastifyInstance, opts: { users: UsersService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { users } = opts;
  const params = userParamsSchema;
  api.get('/users', { schema: { response: { 200: usersResponseSchema } } }, async () => ({
    users: await users.list(),
  }));
  api.post(
    '/users',
    { schema: { body: createUserRequestSchema, response: { 201: createdUserSchema } } },
    async (request, reply) => reply.code(201).send(await users.create(request.body)),
  );
  api.patch(
    '/users/:id',
    { schema: { params, body: updateUserRequestSchema, response: { 200: managedUserSchema } } },
    (request) => users.update(request.params.id, request.body, sessionOf(request).user),
  );
  api.delete('/users/:id', { schema: { params, response: { 200: okSchema } } }, async (request) => {
    await users.remove(request.params.id, sessionOf(request).user);
    return { ok: true as const };
  });
  api.post(
    '/users/:id/reset-password',
    { schema: { params, body: emptyBodySchema, response: { 200: oneTimePasswordSchema } } },
    (request) => users.resetPassword(request.params.id),
  );
  api.post(
    '/users/:id/end-sessions',
    { schema: { params, body: emptyBodySchema, response: { 200: okSchema } } },
    async (request) => {
      await users.endSessions(request.params.id);
      return { ok: true as const };
    },
  );
}
