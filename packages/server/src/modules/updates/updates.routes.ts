import { updatesSummarySchema } from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { UpdatesService } from './updates.service.js';

export function updatesRoutes(app: FastifyInstance, opts: { updates: UpdatesService }): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/updates/summary', { schema: { response: { 200: updatesSummarySchema } } }, () =>
      opts.updates.summary(),
    );
}
