import {
  execRecordingListSchema,
  execRecordingParamsSchema,
  execRecordingSchema,
  execRecordingsQuerySchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../auth/index.js';
import type { ExecRecordings } from './exec-recordings.js';

/** Admins only (the route table says so): a recording may hold whatever was typed. */
export function execRecordingsRoutes(
  app: FastifyInstance,
  opts: { execRecordings: ExecRecordings },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/exec/recordings',
    {
      schema: {
        querystring: execRecordingsQuerySchema,
        response: { 200: execRecordingListSchema },
      },
    },
    (request) => opts.execRecordings.list(request.query),
  );
  api.get(
    '/exec/recordings/:id',
    { schema: { params: execRecordingParamsSchema, response: { 200: execRecordingSchema } } },
    (request) => opts.execRecordings.get(request.params.id, sessionOf(request).user.username),
  );
}
