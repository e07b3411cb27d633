import {
  autoUpdateConfigsSchema,
  containerActionParamsSchema,
  containerParamsSchema,
  containerLogsQuerySchema,
  containerLogsResponseSchema,
  containerActionResponseSchema,
  containersQuerySchema,
  tagsResponseSchema,
  tagSuggestQuerySchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { emptyBodySchema } from '@berth/contracts';
import { actorOf, reachableEntries, reachOf, sessionOf } from '../auth/index.js';
import type { ContainerLogsService } from './container-logs.js';
import type { ContainerView } from '../container-view/index.js';
import type { ContainersService } from './containers.service.js';
import { SharedJsonBody } from '../../platform/compression.js';
import { suggestTags } from '../../platform/tag-suggestions.js';

/** The container list, container actions and logs. */
export function containersRoutes(
  app: FastifyInstance,
  opts: {
    containers: ContainersService;
    containerLogs: ContainerLogsService;
    containerView: ContainerView;
  },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // The list text is shared for up to a second; so is its compressed form.
  const sharedList = new SharedJsonBody();
  api.get(
    '/containers',
    // No response schema: the list (Container[] of the contracts) is built from typed values
    // by our own code and sent as written JSON; checking a thousand containers against the
    // schema on every poll cost more than the rest of the request (bench/containers).
    { schema: { querystring: containersQuerySchema } },
    async (request, reply) => {
      const reach = reachOf(request);
      const hostId = request.query.host_id;
      if (reach.scope === null) {
        return sharedList.send(request, reply, opts.containerView.containersJson(hostId));
      }
      // A scoped caller's list is written for it alone; the shared text stays everyone's.
      const mine = opts.containerView
        .listContainers(hostId)
        .filter((c) => reach.reaches(c.host_id));
      return reply.type('application/json').send(JSON.stringify(mine));
    },
  );
  api.get(
    '/auto-update-configs',
    { schema: { response: { 200: autoUpdateConfigsSchema } } },
    (request) => reachableEntries(reachOf(request), opts.containerView.autoUpdateConfigs()),
  );
  api.get(
    '/tags/suggest',
    { schema: { querystring: tagSuggestQuerySchema, response: { 200: tagsResponseSchema } } },
    (request) => {
      const { q, limit } = request.query;
      const reach = reachOf(request);
      if (reach.scope === null) return { tags: opts.containerView.suggestTags(q, limit) };
      const mine = opts.containerView.listContainers().filter((c) => reach.reaches(c.host_id));
      return {
        tags: suggestTags(
          mine.map((c) => c.tags),
          q,
          limit,
        ),
      };
    },
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
      return opts.containers.act(hostId, containerId, action, actorOf(request));
    },
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
