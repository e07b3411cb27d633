import {
  batchCreatedSchema,
  batchJobSchema,
  batchRequestSchema,
  parseContainerKey,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, reachOf } from '../auth/index.js';
import { notFound } from '../../platform/http-errors.js';
import type { BatchService } from './batch.service.js';

/** POST /batch and GET /batch/{jobId}. */
export function batchRoutes(app: FastifyInstance, opts: { batch: BatchService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/batch',
    { schema: { body: batchRequestSchema, response: { 200: batchCreatedSchema } } },
    (request) => {
      // A container on a host out of reach is refused as a missing host would be, by field.
      const reach = reachOf(request);
      request.body.ids.forEach((key, i) => {
        const hostId = parseContainerKey(key)?.hostId ?? '';
        if (!reach.reaches(hostId)) throw notFound(`ids.${i}: Host not found`);
      });
      return opts.batch.create(request.body, actorOf(request));
    },
  );
  api.get(
    '/batch/:jobId',
    {
      schema: {
        params: z.strictObject({ jobId: z.string().max(100) }),
        response: { 200: batchJobSchema },
      },
    },
    (request) => opts.batch.get(request.params.jobId, reachOf(request)),
  );
}
