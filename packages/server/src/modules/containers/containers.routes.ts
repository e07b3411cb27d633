import {
  autoRestartBodySchema,
  autoUpdateConfigsSchema,
  containerActionParamsSchema,
  containerParamsSchema,
  containerLogsQuerySchema,
  containerLogsResponseSchema,
  containerTagsPatchSchema,
  desiredStateBodySchema,
  containerActionResponseSchema,
  containerSchema,
  containersQuerySchema,
  tagsResponseSchema,
  tagSuggestQuerySchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { emptyBodySchema } from '@berth/contracts';
import { sessionOf } from '../auth/index.js';
import type { ContainerLogsService } from './container-logs.js';
import type { ContainerSettingsService } from './container-settings.service.js';
import type { ContainersService } from './containers.service.js';

/** GET /containers, the container actions of spec 1 §7 and the settings calls of spec 2 §7. */
export function containersRoutes(
  app: FastifyInstance,
  opts: {
    containers: ContainersService;
    containerSettings: ContainerSettingsService;
    containerLogs: ContainerLogsService;
  },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/containers',
    // No response schema: the list (Container[] of the contracts) is built from typed values
    // by our own code and sent as written JSON; checking a thousand containers against the
    // schema on every poll cost more than the rest of the request (bench/containers).
    { schema: { querystring: containersQuerySchema } },
    async (request, reply) =>
      reply.type('application/json').send(opts.containers.listJson(request.query.host_id)),
  );
  api.get('/auto-update-configs', { schema: { response: { 200: autoUpdateConfigsSchema } } }, () =>
    opts.containers.autoUpdateConfigs(),
  );
  api.get(
    '/tags/suggest',
    { schema: { querystring: tagSuggestQuerySchema, response: { 200: tagsResponseSchema } } },
    (request) => ({ tags: opts.containers.suggestTags(request.query.q, request.query.limit) }),
  );
  api.post(
    '/hosts/:hostId/containers/:containerId/:action',
    {
      schema: {
        params: containerActionParamsSchema,
        body: emptyBodySchema,
        response: { 200: containerActionResponseSchema },
      },
    },
    (request) => {
      const { hostId, containerId, action } = request.params;
      return opts.containers.act(hostId, containerId, action, sessionOf(request).user.username);
    },
  );

  const user = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).user.username;
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
  api.get(
    '/hosts/:hostId/containers/:containerId/logs',
    {
      schema: {
        params: containerParamsSchema,
        querystring: containerLogsQuerySchema,
        response: { 200: containerLogsResponseSchema },
      },
    },
    (request) =>
      opts.containerLogs.read(
        sessionOf(request).tokenHash,
        request.params.hostId,
        request.params.containerId,
        request.query,
      ),
  );
}
