import {
  alertAnnotationCreateSchema,
  alertAnnotationListSchema,
  alertAnnotationSchema,
  alertListQuerySchema,
  alertListResponseSchema,
  alertParamsSchema,
  alertResolveSchema,
  alertSchema,
  alertSnoozeSchema,
  alertStatsSchema,
  diskAvailabilitySchema,
  emptyBodySchema,
} from '@berth/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, reachOf } from '../auth/index.js';
import { notFound } from '../../platform/http-errors.js';
import type { AlertsService } from './alerts.service.js';
import { alertRulesRoutes } from './rules.routes.js';

/** Both spellings (with and without the trailing slash) answer, as the UI uses both. */
const both = (url: string) => [url, `${url}/`];
/** The alert id of a route's path, validated by the time a preHandler runs. */
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** The alert calls: list, stats, detail, annotations, resolve, snooze, unsnooze. */
export function alertsRoutes(app: FastifyInstance, opts: { alerts: AlertsService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { alerts } = opts;
  const hostsOf = (request: FastifyRequest) => reachOf(request).hostIds();
  /**
   * An alert acted on by id answers as a missing one when its host is out of the caller's
   * reach (an alert of no host is Berth's own, not a scoped user's).
   */
  const reachable = async (request: FastifyRequest, id: string) => {
    const reach = reachOf(request);
    if (reach.scope === null) return;
    const { host_id: hostId } = await alerts.get(id);
    if (hostId === null || !reach.reaches(hostId)) throw notFound('Alert not found');
  };
  // Static paths first, so 'stats' and 'rules' are never read as an alert id.
  for (const url of both('/alerts')) {
    api.get(
      url,
      { schema: { querystring: alertListQuerySchema, response: { 200: alertListResponseSchema } } },
      (request) => alerts.list(request.query, hostsOf(request)),
    );
  }
  for (const url of both('/alerts/stats')) {
    api.get(url, { schema: { response: { 200: alertStatsSchema } } }, (request) =>
      alerts.stats(hostsOf(request)),
    );
  }
  api.get(
    '/alerts/disk-availability',
    { schema: { response: { 200: diskAvailabilitySchema } } },
    async (request) => {
      const { hosts } = await alerts.rules.diskAvailability();
      return { hosts: hosts.filter((h) => reachOf(request).reaches(h.host_id)) };
    },
  );
  alertRulesRoutes(app, opts);

  const params = { params: alertParamsSchema };
  // Checked before the handler, so nothing out of reach is read or changed.
  const inReach = { preHandler: (request: FastifyRequest) => reachable(request, idOf(request)) };
  api.get(
    '/alerts/:id',
    { ...inReach, schema: { ...params, response: { 200: alertSchema } } },
    (request) => alerts.get(request.params.id),
  );
  api.get(
    '/alerts/:id/annotations',
    { ...inReach, schema: { ...params, response: { 200: alertAnnotationListSchema } } },
    async (request) => ({ annotations: await alerts.annotations(request.params.id) }),
  );
  api.post(
    '/alerts/:id/annotations',
    {
      ...inReach,
      schema: {
        ...params,
        body: alertAnnotationCreateSchema,
        response: { 200: alertAnnotationSchema },
      },
    },
    (request) => alerts.annotate(request.params.id, actorOf(request), request.body.text),
  );
  api.post(
    '/alerts/:id/resolve',
    { ...inReach, schema: { ...params, body: alertResolveSchema, response: { 200: alertSchema } } },
    (request) => alerts.resolve(request.params.id, request.body?.reason),
  );
  api.post(
    '/alerts/:id/snooze',
    { ...inReach, schema: { ...params, body: alertSnoozeSchema, response: { 200: alertSchema } } },
    (request) => alerts.snooze(request.params.id, request.body.duration_minutes),
  );
  api.post(
    '/alerts/:id/unsnooze',
    { ...inReach, schema: { ...params, body: emptyBodySchema, response: { 200: alertSchema } } },
    (request) => alerts.unsnooze(request.params.id),
  );
}
