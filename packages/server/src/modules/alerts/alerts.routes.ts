import { alertListQuerySchema, alertListResponseSchema, alertStatsSchema } from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AlertsService } from './alerts.service.js';

/** The alert reads of spec 3 §7; both spellings (with and without the slash) answer. */
export function alertsRoutes(app: FastifyInstance, opts: { alerts: AlertsService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const url of ['/alerts', '/alerts/']) {
    api.get(
      url,
      { schema: { querystring: alertListQuerySchema, response: { 200: alertListResponseSchema } } },
      (request) => opts.alerts.list(request.query),
    );
  }
  for (const url of ['/alerts/stats', '/alerts/stats/']) {
    api.get(url, { schema: { response: { 200: alertStatsSchema } } }, () => opts.alerts.stats());
  }
}
