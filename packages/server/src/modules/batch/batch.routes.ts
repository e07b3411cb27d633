import { batchCreatedSchema, batchJobSchema, batchRequestSchema } from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../auth/index.js';
import type { BatchService } from './batch.service.js';

/** POST /batch and GET /batch/{jobId}. */
export function batchRoutes(app: FastifyInstance, opts: { batch: BatchService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/batch',
    { schema: { body: batchRequestSchema, response: { 200: batchCreatedSchema } } },
    (request) => opts.batch.create(request.body, actorOf(request)),
  );
  api.get(
    '/batch/:jobId',
    {
      schema: {
        params: z.strictObject({ jobId: z.string().max(100) }),
        response: { 200: batchJobSchema },
      },
    },
    (request) => opts.batch.get(request.params.jobId),
  );
}
