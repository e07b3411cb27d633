import {
  containerParamsSchema,
  hostMetricsParamsSchema,
  metricsQuerySchema,
  metricsResponseSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { MetricsHistoryService } from './metrics-history.service.js';

/** A host's and a container's metrics history (reads: host scopes apply through the path). */
export function metricsHistoryRoutes(
  app: FastifyInstance,
  opts: { metricsHistory: MetricsHistoryService },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/hosts/:hostId/metrics',
    {
      schema: {
        params: hostMetricsParamsSchema,
        querystring: metricsQuerySchema,
        response: { 200: metricsResponseSchema },
      },
    },
    (request) => opts.metricsHistory.query(request.params.hostId, null, request.query),
  );
  api.get(
    '/hosts/:hostId/containers/:containerId/metrics',
    {
      schema: {
        params: containerParamsSchema,
        querystring: metricsQuerySchema,
        response: { 200: metricsResponseSchema },
      },
    },
    (request) =>
      opts.metricsHistory.query(request.params.hostId, request.params.containerId, request.query),
  );
}
