import {
  resourceHostParamsSchema,
  resourcePruneResultSchema,
  volumeCreateSchema,
  volumeDetailsSchema,
  volumeParamsSchema,
  volumePruneBodySchema,
  volumePrunePreviewSchema,
  volumeRemoveQuerySchema,
  volumeRemoveResponseSchema,
  volumeSchema,
  volumesQuerySchema,
  volumesResponseSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../platform/http-errors.js';
import { actorOf, reachOf } from '../auth/index.js';
import type { Fleet } from '../monitor/index.js';
import type { VolumesService } from './volumes.service.js';

/**
 * The hosts a fleet-wide list reads: every host in the caller's reach, or the one `host`
 * names (a host out of reach answers as a missing one).
 */
export function hostsToRead(fleet: Fleet, reaches: (hostId: string) => boolean, host?: string) {
  if (host !== undefined) {
    if (fleet.host(host) === undefined || !reaches(host)) throw notFound('Host not found');
    return [host];
  }
  return fleet
    .hosts()
    .map((h) => h.id)
    .filter(reaches);
}

/** Volumes across the fleet and on one host: list, inspect, create, remove, prune. */
export function volumesRoutes(
  app: FastifyInstance,
  opts: { volumes: VolumesService; fleet: Fleet },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/volumes',
    { schema: { querystring: volumesQuerySchema, response: { 200: volumesResponseSchema } } },
    (request) => {
      const { host, sizes } = request.query;
      const hostIds = hostsToRead(opts.fleet, reachOf(request).reaches, host);
      return opts.volumes.list(hostIds, sizes === 'true');
    },
  );
  api.get(
    '/hosts/:hostId/volumes/:name',
    { schema: { params: volumeParamsSchema, response: { 200: volumeDetailsSchema } } },
    (request) => opts.volumes.inspect(request.params.hostId, request.params.name),
  );
  api.post(
    '/hosts/:hostId/volumes',
    {
      schema: {
        params: resourceHostParamsSchema,
        body: volumeCreateSchema,
        response: { 201: volumeSchema },
      },
    },
    async (request, reply) => {
      const made = await opts.volumes.create(request.params.hostId, request.body);
      return reply.code(201).send(made);
    },
  );
  api.delete(
    '/hosts/:hostId/volumes/:name',
    {
      schema: {
        params: volumeParamsSchema,
        querystring: volumeRemoveQuerySchema,
        response: { 200: volumeRemoveResponseSchema },
      },
    },
    (request) =>
      opts.volumes.remove(
        request.params.hostId,
        request.params.name,
        request.query.force === 'true',
        actorOf(request),
      ),
  );
  api.get(
    '/hosts/:hostId/prune/volumes',
    { schema: { params: resourceHostParamsSchema, response: { 200: volumePrunePreviewSchema } } },
    (request) => opts.volumes.prunePreview(request.params.hostId),
  );
  api.post(
    '/hosts/:hostId/prune/volumes',
    {
      schema: {
        params: resourceHostParamsSchema,
        body: volumePruneBodySchema,
        response: { 200: resourcePruneResultSchema },
      },
    },
    (request) => opts.volumes.prune(request.params.hostId, request.body.names, actorOf(request)),
  );
}
