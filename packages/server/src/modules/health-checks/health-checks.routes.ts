import {
  containerParamsSchema,
  healthCheckConfigBodySchema,
  healthCheckConfigsSchema,
  healthCheckSchema,
  healthCheckTestBodySchema,
  healthCheckTestResponseSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { reachableEntries, reachOf } from '../auth/index.js';
import type { HealthChecksService } from './health-checks.service.js';

/** A container's HTTP health check, its one-off test, and every check's status. */
export function healthChecksRoutes(
  app: FastifyInstance,
  opts: { healthChecks: HealthChecksService },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const path = '/containers/:hostId/:containerId/http-health-check';
  api.get(
    path,
    { schema: { params: containerParamsSchema, response: { 200: healthCheckSchema } } },
    (request) => opts.healthChecks.get(request.params.hostId, request.params.containerId),
  );
  api.put(
    path,
    {
      schema: {
        params: containerParamsSchema,
        body: healthCheckConfigBodySchema,
        response: { 200: healthCheckSchema },
      },
    },
    (request) =>
      opts.healthChecks.put(request.params.hostId, request.params.containerId, request.body),
  );
  api.post(
    `${path}/test`,
    {
      schema: {
        params: containerParamsSchema,
        body: healthCheckTestBodySchema,
        response: { 200: healthCheckTestResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      test_result: await opts.healthChecks.test(
        request.params.hostId,
        request.params.containerId,
        request.body,
      ),
    }),
  );
  api.get(
    '/health-check-configs',
    { schema: { response: { 200: healthCheckConfigsSchema } } },
    (request) => reachableEntries(reachOf(request), opts.healthChecks.configs()),
  );
}
