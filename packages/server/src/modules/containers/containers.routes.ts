import {
  containerActionParamsSchema,
  containerActionResponseSchema,
  containerSchema,
  containersQuerySchema,
  tagsResponseSchema,
  tagSuggestQuerySchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emptyBodySchema } from '@berth/contracts';
import { sessionOf } from '../auth/index.js';
import type { ContainersService } from './containers.service.js';

/** GET /containers and the container actions of spec 1 §7. */
export function containersRoutes(
  app: FastifyInstance,
  opts: { containers: ContainersService },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/containers',
    { schema: { querystring: containersQuerySchema, response: { 200: z.array(containerSchema) } } },
    (request) => opts.containers.list(request.query.host_id),
  );
  api.get(
    '/tags/suggest',
    { schema: { querystring: tagSuggestQuerySchema, response: { 200: tagsResponseSchema } } },
    (request) => ({ tags: opts.containers.suggestTags(request.query.q, request.query.limit) }),
  );
  api.post(
    '/hosts/:hostId/containers/:containerId/:action',
    {
      schema: {
        params: containerActionParamsSchema,
        body: emptyBodySchema,
        response: { 200: containerActionResponseSchema },
      },
    },
    (request) => {
      const { hostId, containerId, action } = request.params;
      return opts.containers.act(hostId, containerId, action, sessionOf(request).user.username);
    },
  );
}
