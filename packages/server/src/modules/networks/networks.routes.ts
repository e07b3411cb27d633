import {
  networkCreatedSchema,
  networkCreateSchema,
  networkDetailsSchema,
  networkParamsSchema,
  networkPruneBodySchema,
  networkRemovedSchema,
  networkPrunePreviewSchema,
  networksQuerySchema,
  networksResponseSchema,
  resourceHostParamsSchema,
  resourcePruneResultSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, reachOf } from '../auth/index.js';
import type { Fleet } from '../monitor/index.js';
import { hostsToRead } from '../volumes/index.js';
import type { NetworksService } from './networks.service.js';

/** Networks across the fleet and on one host: list, inspect, create, remove, prune. */
export function networksRoutes(
  app: FastifyInstance,
  opts: { networks: NetworksService; fleet: Fleet },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/networks',
    { schema: { querystring: networksQuerySchema, response: { 200: networksResponseSchema } } },
    (request) =>
      opts.networks.list(hostsToRead(opts.fleet, reachOf(request).reaches, request.query.host)),
  );
  api.get(
    '/hosts/:hostId/networks/:id',
    { schema: { params: networkParamsSchema, response: { 200: networkDetailsSchema } } },
    (request) => opts.networks.inspect(request.params.hostId, request.params.id),
  );
  api.post(
    '/hosts/:hostId/networks',
    {
      schema: {
        params: resourceHostParamsSchema,
        body: networkCreateSchema,
        response: { 201: networkCreatedSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await opts.networks.create(request.params.hostId, request.body)),
  );
  api.delete(
    '/hosts/:hostId/networks/:id',
    { schema: { params: networkParamsSchema, response: { 200: networkRemovedSchema } } },
    (request) => opts.networks.remove(request.params.hostId, request.params.id),
  );
  api.get(
    '/hosts/:hostId/prune/networks',
    { schema: { params: resourceHostParamsSchema, response: { 200: networkPrunePreviewSchema } } },
    (request) => opts.networks.prunePreview(request.params.hostId),
  );
  api.post(
    '/hosts/:hostId/prune/networks',
    {
      schema: {
        params: resourceHostParamsSchema,
        body: networkPruneBodySchema,
        response: { 200: resourcePruneResultSchema },
      },
    },
    (request) => opts.networks.prune(request.params.hostId, request.body.ids, actorOf(request)),
  );
}
