import {
  apiKeyParamsSchema,
  apiKeysResponseSchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
  okSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../auth/index.js';
import type { ApiKeysService } from './api-keys.service.js';

/** Settings → API Keys: a signed-in session only (the route table says `account`). */
export function apiKeysRoutes(app: FastifyInstance, opts: { apiKeys: ApiKeysService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api-keys',
    { schema: { response: { 200: apiKeysResponseSchema } } },
    async (request) => ({ keys: await opts.apiKeys.list(sessionOf(request).user) }),
  );
  api.post(
    '/api-keys',
    { schema: { body: createApiKeyRequestSchema, response: { 201: createdApiKeySchema } } },
    async (request, reply) =>
      reply.code(201).send(await opts.apiKeys.create(request.body, sessionOf(request).user)),
  );
  api.delete(
    '/api-keys/:id',
    { schema: { params: apiKeyParamsSchema, response: { 200: okSchema } } },
    async (request) => {
      await opts.apiKeys.revoke(request.params.id, sessionOf(request).user);
      return { ok: true as const };
    },
  );
}
