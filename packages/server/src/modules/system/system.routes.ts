import { healthResponseSchema } from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isDatabaseHealthy, type Db } from '../../db/database.js';

/** GET /health: reachable without sign-in, for probes and the sidebar version. */
export function systemRoutes(app: FastifyInstance, opts: { db: Db; version: string }): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      schema: { response: { 200: healthResponseSchema, 503: healthResponseSchema } },
      // Docker's health check calls every 10 s: two info lines each would bury the log.
      logLevel: 'warn',
    },
    async (_request, reply) => {
      const dbOk = await isDatabaseHealthy(opts.db);
      const body = {
        status: dbOk ? ('ok' as const) : ('degraded' as const),
        version: opts.version,
        database: dbOk ? ('ok' as const) : ('error' as const),
      };
      return reply.code(dbOk ? 200 : 503).send(body);
    },
  );
}
