import {
  composeFilesSchema,
  projectActionParamsSchema,
  projectJobParamsSchema,
  projectJobSchema,
  projectListQuerySchema,
  projectParamsSchema,
  projectSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, reachOf } from '../auth/index.js';
import type { ProjectsService } from './projects.service.js';

/**
 * Compose projects: the fleet's list (`?host=` narrows it), a host's, actions on a whole
 * project (a job whose progress is polled) and the project's compose files, read-only.
 */
export function projectsRoutes(app: FastifyInstance, opts: { projects: ProjectsService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { projects } = opts;
  api.get(
    '/projects',
    {
      schema: {
        querystring: projectListQuerySchema,
        response: { 200: z.array(projectSchema) },
      },
    },
    (request) => {
      const reach = reachOf(request);
      return projects.list((h) => reach.reaches(h), request.query.host);
    },
  );
  api.get(
    '/projects/jobs/:jobId',
    { schema: { params: projectJobParamsSchema, response: { 200: projectJobSchema } } },
    (request) => {
      const reach = reachOf(request);
      return projects.job(request.params.jobId, (h) => reach.reaches(h));
    },
  );
  api.get(
    '/hosts/:hostId/projects',
    {
      schema: {
        params: z.strictObject({ hostId: z.string().max(100) }),
        response: { 200: z.array(projectSchema) },
      },
    },
    (request) => projects.list(() => true, request.params.hostId, ''),
  );
  api.get(
    '/hosts/:hostId/projects/:project/compose-file',
    { schema: { params: projectParamsSchema, response: { 200: composeFilesSchema } } },
    (request) => projects.composeFiles(request.params.hostId, request.params.project),
  );
  api.post(
    '/hosts/:hostId/projects/:project/:action',
    { schema: { params: projectActionParamsSchema, response: { 202: projectJobSchema } } },
    (request, reply) => {
      const { hostId, project, action } = request.params;
      reply.code(202);
      return projects.act(hostId, project, action, actorOf(request));
    },
  );
}
