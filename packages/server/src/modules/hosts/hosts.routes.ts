import {
  deleteHostResponseSchema,
  hostPayloadSchema,
  hostSchema,
  hostTagsPatchSchema,
  tagsResponseSchema,
  tagSuggestQuerySchema,
  testConnectionResponseSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../auth/index.js';
import type { HostsService } from './hosts.service.js';

const hostParams = z.strictObject({ id: z.string().min(1).max(100) });

/** The hosts calls: list, create, test, tag suggestions, one host, update, delete, tags. */
export function hostsRoutes(app: FastifyInstance, opts: { hosts: HostsService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { hosts } = opts;
  const actor = (request: Parameters<typeof sessionOf>[0]) => ({
    username: sessionOf(request).user.username,
  });

  api.get('/hosts', { schema: { response: { 200: z.array(hostSchema) } } }, () => hosts.list());

  api.post(
    '/hosts',
    { schema: { body: hostPayloadSchema, response: { 200: hostSchema } } },
    (request) => hosts.create(request.body, actor(request)),
  );

  api.post(
    '/hosts/test-connection',
    { schema: { body: hostPayloadSchema, response: { 200: testConnectionResponseSchema } } },
    (request) => hosts.testConnection(request.body),
  );

  api.get(
    '/hosts/tags/suggest',
    { schema: { querystring: tagSuggestQuerySchema, response: { 200: tagsResponseSchema } } },
    async (request) => ({ tags: await hosts.suggestTags(request.query.q, request.query.limit) }),
  );

  api.get(
    '/hosts/:id',
    { schema: { params: hostParams, response: { 200: hostSchema } } },
    (request) => hosts.get(request.params.id),
  );

  api.put(
    '/hosts/:id',
    { schema: { params: hostParams, body: hostPayloadSchema, response: { 200: hostSchema } } },
    (request) => hosts.update(request.params.id, request.body, actor(request)),
  );

  api.delete(
    '/hosts/:id',
    { schema: { params: hostParams, response: { 200: deleteHostResponseSchema } } },
    async (request) => {
      const resolved = await hosts.remove(request.params.id, actor(request));
      return { ok: true as const, resolved_alerts: resolved };
    },
  );

  api.patch(
    '/hosts/:id/tags',
    {
      schema: {
        params: hostParams,
        body: hostTagsPatchSchema,
        response: { 200: tagsResponseSchema },
      },
    },
    async (request) => ({
      tags: await hosts.patchTags(
        request.params.id,
        request.body.tags_to_add,
        request.body.tags_to_remove,
      ),
    }),
  );
}
