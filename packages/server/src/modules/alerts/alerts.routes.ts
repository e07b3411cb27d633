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
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../auth/index.js';
import type { AlertsService } from './alerts.service.js';
import { alertRulesRoutes } from './rules.routes.js';

/** Both spellings (with and without the trailing slash) answer, as the UI uses both. */
const both = (url: string) => [url, `${url}/`];

/** The alert calls: list, stats, detail, annotations, resolve, snooze, unsnooze. */
export function alertsRoutes(app: FastifyInstance, opts: { alerts: AlertsService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { alerts } = opts;
  // Static paths first, so 'stats' and 'rules' are never read as an alert id.
  for (const url of both('/alerts')) {
    api.get(
      url,
      { schema: { querystring: alertListQuerySchema, response: { 200: alertListResponseSchema } } },
      (request) => alerts.list(request.query),
    );
  }
  for (const url of both('/alerts/stats')) {
    api.get(url, { schema: { response: { 200: alertStatsSchema } } }, () => alerts.stats());
  }
  api.get(
    '/alerts/disk-availability',
    { schema: { response: { 200: diskAvailabilitySchema } } },
    () => alerts.rules.diskAvailability(),
  );
  alertRulesRoutes(app, opts);

  const params = { params: alertParamsSchema };
  api.get('/alerts/:id', { schema: { ...params, response: { 200: alertSchema } } }, (request) =>
    alerts.get(request.params.id),
  );
  api.get(
    '/alerts/:id/annotations',
    { schema: { ...params, response: { 200: alertAnnotationListSchema } } },
    async (request) => ({ annotations: await alerts.annotations(request.params.id) }),
  );
  api.post(
    '/alerts/:id/annotations',
    {
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
    { schema: { ...params, body: alertResolveSchema, response: { 200: alertSchema } } },
    (request) => alerts.resolve(request.params.id, request.body?.reason),
  );
  api.post(
    '/alerts/:id/snooze',
    { schema: { ...params, body: alertSnoozeSchema, response: { 200: alertSchema } } },
    (request) => alerts.snooze(request.params.id, request.body.duration_minutes),
  );
  api.post(
    '/alerts/:id/unsnooze',
    { schema: { ...params, body: emptyBodySchema, response: { 200: alertSchema } } },
    (request) => alerts.unsnooze(request.params.id),
  );
}
