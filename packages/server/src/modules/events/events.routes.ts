import {
  containerKey,
  eventLimitQuerySchema,
  eventQuerySchema,
  eventsResponseSchema,
  type EventQuery,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { EventsService } from './events.service.js';

const allTime = (overrides: Partial<EventQuery>): EventQuery => eventQuerySchema.parse(overrides);

/** The event log calls: the filtered page, a host's events and a container's events. */
export function eventsRoutes(app: FastifyInstance, opts: { events: EventsService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/events',
    { schema: { querystring: eventQuerySchema, response: { 200: eventsResponseSchema } } },
    (request) => opts.events.query(request.query),
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
      opts.events.query(allTime({ host_id: [request.params.hostId], limit: request.query.limit })),
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
      return opts.events.query(allTime({ container_id: [key], limit: request.query.limit }));
    },
  );
}
