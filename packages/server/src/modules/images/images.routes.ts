import {
  hostImagesParamsSchema,
  imageDetailsSchema,
  imageParamsSchema,
  imagePruneResponseSchema,
  imagePrunePreviewSchema,
  imagePullBodySchema,
  imageRemoveQuerySchema,
  imageRemoveResponseSchema,
  imagesQuerySchema,
  imagesResponseSchema,
  emptyBodySchema,
  okSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { reachOf, sessionOf } from '../auth/index.js';
import type { ImagePulls } from './image-pull.js';
import type { ImagesService } from './images.service.js';

/** Images per host and across the fleet: list, inspect, remove, pull, prune. */
export function imagesRoutes(
  app: FastifyInstance,
  opts: { images: ImagesService; imagePulls: ImagePulls },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/images',
    { schema: { querystring: imagesQuerySchema, response: { 200: imagesResponseSchema } } },
    (request) => {
      const reach = reachOf(request);
      return opts.images.list(request.query.host, reach.reaches);
    },
  );
  // Registered before `/:imageId`; the router prefers the fixed segment anyway.
  api.get(
    '/hosts/:hostId/images/prune',
    { schema: { params: hostImagesParamsSchema, response: { 200: imagePrunePreviewSchema } } },
    (request) => opts.images.prunePreview(request.params.hostId),
  );
  api.post(
    '/hosts/:hostId/images/prune',
    {
      schema: {
        params: hostImagesParamsSchema,
        body: emptyBodySchema,
        response: { 200: imagePruneResponseSchema },
      },
    },
    (request) => opts.images.prune(request.params.hostId),
  );
  api.get(
    '/hosts/:hostId/images/:imageId',
    { schema: { params: imageParamsSchema, response: { 200: imageDetailsSchema } } },
    (request) => opts.images.details(request.params.hostId, request.params.imageId),
  );
  api.delete(
    '/hosts/:hostId/images/:imageId',
    {
      schema: {
        params: imageParamsSchema,
        querystring: imageRemoveQuerySchema,
        response: { 200: imageRemoveResponseSchema },
      },
    },
    (request) =>
      opts.images.remove(request.params.hostId, request.params.imageId, request.query.force),
  );
  // A stream of progress lines (ImagePullLine), sent as they come: never compressed, which
  // would hold them back until a compressor's block fills.
  api.post(
    '/hosts/:hostId/images/pull',
    { compress: false, schema: { params: hostImagesParamsSchema, body: imagePullBodySchema } },
    async (request, reply) => {
      const { user, key } = sessionOf(request);
      const stream = await opts.imagePulls.start(request.params.hostId, request.body.reference, {
        actor: user.username,
        apiKey: key?.name ?? null,
      });
      return reply
        .type('application/x-ndjson')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(stream);
    },
  );
  // A reader that goes away leaves the pull running (a closed tab is not a decision); this is.
  api.post(
    '/hosts/:hostId/images/pull/cancel',
    {
      schema: {
        params: hostImagesParamsSchema,
        body: imagePullBodySchema,
        response: { 200: okSchema },
      },
    },
    (request) => {
      const { user } = sessionOf(request);
      opts.imagePulls.cancel(request.params.hostId, request.body.reference, user.username);
      return { ok: true as const };
    },
  );
}
