import {
  autoRestartBodySchema,
  containerParamsSchema,
  containerSchema,
  containerTagsPatchSchema,
  desiredStateBodySchema,
  tagsResponseSchema,
  type Container,
} from '@berth/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../platform/http-errors.js';
import { actorOf } from '../auth/index.js';
import type { ContainerSettingsService } from './container-settings.service.js';

const user = (request: FastifyRequest) => actorOf(request);

/** Berth's own settings of one container: tags, auto-restart, desired state and Web UI link. */
export function containerSettingsRoutes(
  app: FastifyInstance,
  opts: {
    containerSettings: ContainerSettingsService;
    /**
     * The container as the API shows it after the change (container-view, which sits above
     * this module, handed in by the app).
     */
    showContainer: (hostId: string, containerId: string) => Container | undefined;
  },
): void {
  const shown = (hostId: string, containerId: string): Container => {
    const c = opts.showContainer(hostId, containerId);
    if (c === undefined) throw notFound('Container not found');
    return c;
  };
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
    async (request) => {
      const { hostId, containerId } = request.params;
      await opts.containerSettings.setAutoRestart(
        hostId,
        containerId,
        request.body.enabled,
        user(request),
      );
      return shown(hostId, containerId);
    },
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
    async (request) => {
      const { hostId, containerId } = request.params;
      await opts.containerSettings.setDesiredState(
        hostId,
        containerId,
        request.body,
        user(request),
      );
      return shown(hostId, containerId);
    },
  );
}
