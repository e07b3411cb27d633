import {
  containerKey,
  eventLimitQuerySchema,
  eventQuerySchema,
  eventsResponseSchema,
  type EventQuery,
  type EventsResponse,
} from '@berth/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reachOf } from '../auth/index.js';
import type { EventsService } from './events.service.js';

const allTime = (overrides: Partial<EventQuery>): EventQuery => eventQuerySchema.parse(overrides);

/**
 * A query within the caller's host scope: the hosts it names that are in reach, or every host
 * in reach when it names none (events of no host, Berth's own, are not a scoped user's).
 * Null when nothing is left to ask for.
 */
function withinReach(request: FastifyRequest, q: EventQuery): EventQuery | null {
  const reach = reachOf(request);
  const inReach = reach.hostIds();
  if (inReach === null) return q;
  const hosts = q.host_id.length > 0 ? q.host_id.filter(reach.reaches) : inReach;
  return hosts.length === 0 ? null : { ...q, host_id: hosts };
}

const none = (q: EventQuery): EventsResponse => ({
  events: [],
  total_count: 0,
  limit: q.limit,
  offset: q.offset,
});

/** The event log calls: the filtered page, a host's events and a container's events. */
export function eventsRoutes(app: FastifyInstance, opts: { events: EventsService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const query = (request: FastifyRequest, q: EventQuery) => {
    const scoped = withinReach(request, q);
    return scoped === null ? none(q) : opts.events.query(scoped);
  };
  api.get(
    '/events',
    { schema: { querystring: eventQuerySchema, response: { 200: eventsResponseSchema } } },
    (request) => query(request, request.query),
  );
  api.get(
    '/events/host/:hostId',
    {
      schema: {
        params: z.strictObject({ hostId: z.string().max(100) }),
        querystring: eventLimitQuerySchema,
        response: { 200: eventsResponseSchema },
      },
    },
    (request) =>
      query(request, allTime({ host_id: [request.params.hostId], limit: request.query.limit })),
  );
  api.get(
    '/hosts/:hostId/events/container/:containerId',
    {
      schema: {
        params: z.strictObject({ hostId: z.string().max(100), containerId: z.string().max(100) }),
        querystring: eventLimitQuerySchema,
        response: { 200: eventsResponseSchema },
      },
    },
    (request) => {
      const { hostId, containerId } = request.params;
      const key = containerId.includes(':') ? containerId : containerKey(hostId, containerId);
      return query(request, allTime({ container_id: [key], limit: request.query.limit }));
    },
  );
}
