import {
  deleteHostResponseSchema,
  hostPayloadSchema,
  hostSchema,
  hostTagsPatchSchema,
  tagsResponseSchema,
  tagSuggestQuerySchema,
  testConnectionResponseSchema,
} from '@berth/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, reachOf } from '../auth/index.js';
import type { Host } from '@berth/contracts';
import type { HostsService } from './hosts.service.js';
import type { HostRow } from './hosts.store.js';

/**
 * What the routes need of the modules above hosts, handed in by the app: how a host is shown
 * (container-view adds its live state and counts) and what removing one resolves (alerts).
 */
export interface HostRoutesPorts {
  show(rows: HostRow[]): Promise<Host[]>;
  resolveAlertsOf(hostId: string): Promise<number>;
}

const hostParams = z.strictObject({ id: z.string().min(1).max(100) });

/** The hosts calls: list, create, test, tag suggestions, one host, update, delete, tags. */
export function hostsRoutes(
  app: FastifyInstance,
  opts: { hosts: HostsService; ports: HostRoutesPorts },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { hosts, ports } = opts;
  const showOne = async (row: HostRow): Promise<Host> => {
    const [host] = await ports.show([row]);
    if (host === undefined) throw new Error('a shown host went missing');
    return host;
  };
  const actor = (request: FastifyRequest) => ({
    username: actorOf(request),
  });

  api.get('/hosts', { schema: { response: { 200: z.array(hostSchema) } } }, async (request) => {
    const reach = reachOf(request);
    return ports.show((await hosts.list()).filter((row) => reach.reaches(row.id)));
  });

  api.post(
    '/hosts',
    { schema: { body: hostPayloadSchema, response: { 200: hostSchema } } },
    async (request) => showOne(await hosts.create(request.body, actor(request))),
  );

  api.post(
    '/hosts/test-connection',
    { schema: { body: hostPayloadSchema, response: { 200: testConnectionResponseSchema } } },
    (request) => hosts.testConnection(request.body),
  );

  api.get(
    '/hosts/tags/suggest',
    { schema: { querystring: tagSuggestQuerySchema, response: { 200: tagsResponseSchema } } },
    async (request) => ({
      tags: await hosts.suggestTags(request.query.q, request.query.limit, reachOf(request).reaches),
    }),
  );

  api.get(
    '/hosts/:id',
    { schema: { params: hostParams, response: { 200: hostSchema } } },
    async (request) => showOne(await hosts.get(request.params.id)),
  );

  api.put(
    '/hosts/:id',
    { schema: { params: hostParams, body: hostPayloadSchema, response: { 200: hostSchema } } },
    async (request) => showOne(await hosts.update(request.params.id, request.body, actor(request))),
  );

  api.delete(
    '/hosts/:id',
    { schema: { params: hostParams, response: { 200: deleteHostResponseSchema } } },
    async (request) => {
      await hosts.remove(request.params.id, actor(request));
      const resolved = await ports.resolveAlertsOf(request.params.id);
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
