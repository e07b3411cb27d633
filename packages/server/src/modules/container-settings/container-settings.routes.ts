import {
  autoRestartBodySchema,
  containerParamsSchema,
  containerSchema,
  containerTagsPatchSchema,
  desiredStateBodySchema,
  tagsResponseSchema,
} from '@berth/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../auth/index.js';
import type { ContainerSettingsService } from './container-settings.service.js';

const user = (request: FastifyRequest) => sessionOf(request).user.username;

/** Berth's own settings of one container: tags, auto-restart, desired state and Web UI link. */
export function containerSettingsRoutes(
  app: FastifyInstance,
  opts: { containerSettings: ContainerSettingsService },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.patch(
    '/hosts/:hostId/containers/:containerId/tags',
    {
      schema: {
        params: containerParamsSchema,
        body: containerTagsPatchSchema,
        response: { 200: tagsResponseSchema },
      },
    },
    async (request) => {
      const { hostId, containerId } = request.params;
      const { tags_to_add, tags_to_remove } = request.body;
      const tags = await opts.containerSettings.patchTags(
        hostId,
        containerId,
        tags_to_add,
        tags_to_remove,
        user(request),
      );
      return { tags };
    },
  );
  api.post(
    '/hosts/:hostId/containers/:containerId/auto-restart',
    {
      schema: {
        params: containerParamsSchema,
        body: autoRestartBodySchema,
        response: { 200: containerSchema },
      },
    },
    (request) =>
      opts.containerSettings.setAutoRestart(
        request.params.hostId,
        request.params.containerId,
        request.body.enabled,
        user(request),
      ),
  );
  api.post(
    '/hosts/:hostId/containers/:containerId/desired-state',
    {
      schema: {
        params: containerParamsSchema,
        body: desiredStateBodySchema,
        response: { 200: containerSchema },
      },
    },
    (request) =>
      opts.containerSettings.setDesiredState(
        request.params.hostId,
        request.params.containerId,
        request.body,
        user(request),
      ),
  );
}
