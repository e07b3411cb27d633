import {
  autoUpdateConfigRequestSchema,
  emptyBodySchema,
  checkAllResponseSchema,
  parseContainerKey,
  customPatternQuerySchema,
  executeUpdateQuerySchema,
  executeUpdateResponseSchema,
  registryCredentialCreateSchema,
  registryCredentialDeletedSchema,
  registryCredentialSchema,
  registryCredentialUpdateSchema,
  updatePoliciesResponseSchema,
  updatePolicyCategorySchema,
  updatePolicyQuerySchema,
  updatePolicyToggleQuerySchema,
  updatesSummarySchema,
  updateStatusSchema,
} from '@berth/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, reachOf } from '../auth/index.js';
import type { UpdatesService } from './updates.service.js';

const containerParams = z.object({ hostId: z.string().min(1), containerId: z.string().min(1) });
const idParams = z.object({ id: z.coerce.number().int().positive() });
const usernameOf = (req: FastifyRequest) => actorOf(req);

/** Update status, settings, execution, policies, registry credentials. */
export function updatesRoutes(app: FastifyInstance, opts: { updates: UpdatesService }): void {
  const u = opts.updates;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/hosts/:hostId/containers/:containerId';

  r.get(
    '/updates/summary',
    { schema: { response: { 200: updatesSummarySchema } } },
    async (req) => {
      const reach = reachOf(req);
      const summary = await u.summary();
      if (reach.scope === null) return summary;
      const keys = summary.containers_with_updates.filter((key) =>
        reach.reaches(parseContainerKey(key)?.hostId ?? ''),
      );
      return { total_updates: keys.length, containers_with_updates: keys };
    },
  );
  r.post(
    '/updates/check-all',
    { schema: { body: emptyBodySchema, response: { 200: checkAllResponseSchema } } },
    // A scoped caller checks the containers of the hosts in its reach only.
    (req) => u.checkAll({ reaches: reachOf(req).reaches }),
  );
  r.get(
    `${base}/update-status`,
    { schema: { params: containerParams, response: { 200: updateStatusSchema } } },
    (req) => u.status(req.params.hostId, req.params.containerId),
  );
  r.post(
    `${base}/check-update`,
    {
      schema: {
        body: emptyBodySchema,
        params: containerParams,
        response: { 200: updateStatusSchema },
      },
    },
    (req) => u.checkOne(req.params.hostId, req.params.containerId),
  );
  r.put(
    `${base}/auto-update-config`,
    {
      schema: {
        params: containerParams,
        body: autoUpdateConfigRequestSchema,
        response: { 200: updateStatusSchema },
      },
    },
    (req) => u.setConfig(req.params.hostId, req.params.containerId, req.body, usernameOf(req)),
  );
  r.put(
    `${base}/update-policy`,
    {
      schema: {
        body: emptyBodySchema,
        params: containerParams,
        querystring: updatePolicyQuerySchema,
        response: { 200: updateStatusSchema },
      },
    },
    (req) =>
      u.setPolicy(
        req.params.hostId,
        req.params.containerId,
        req.query.policy ?? null,
        usernameOf(req),
      ),
  );
  r.post(
    `${base}/execute-update`,
    {
      schema: {
        body: emptyBodySchema,
        params: containerParams,
        querystring: executeUpdateQuerySchema,
        response: { 200: executeUpdateResponseSchema },
      },
    },
    (req) =>
      u.execute(req.params.hostId, req.params.containerId, {
        force: req.query.force === 'true',
        username: usernameOf(req),
      }),
  );
  r.post(
    `${base}/rollback-update`,
    {
      schema: {
        body: emptyBodySchema,
        params: containerParams,
        response: { 200: executeUpdateResponseSchema },
      },
    },
    (req) => u.rollback(req.params.hostId, req.params.containerId, usernameOf(req)),
  );

  r.get('/update-policies', { schema: { response: { 200: updatePoliciesResponseSchema } } }, () =>
    u.policies(),
  );
  r.put(
    '/update-policies/:category/toggle',
    {
      schema: {
        body: emptyBodySchema,
        params: z.object({ category: updatePolicyCategorySchema }),
        querystring: updatePolicyToggleQuerySchema,
        response: { 200: updatePoliciesResponseSchema },
      },
    },
    (req) => u.toggleCategory(req.params.category, req.query.enabled === 'true'),
  );
  r.post(
    '/update-policies/custom',
    {
      schema: {
        body: emptyBodySchema,
        querystring: customPatternQuerySchema,
        response: { 200: updatePoliciesResponseSchema },
      },
    },
    (req) => u.addCustom(req.query.pattern),
  );
  r.delete(
    '/update-policies/custom/:id',
    { schema: { params: idParams, response: { 200: updatePoliciesResponseSchema } } },
    (req) => u.deleteCustom(req.params.id),
  );

  r.get(
    '/registry-credentials',
    { schema: { response: { 200: z.array(registryCredentialSchema) } } },
    () => u.listCredentials(),
  );
  r.post(
    '/registry-credentials',
    {
      schema: { body: registryCredentialCreateSchema, response: { 200: registryCredentialSchema } },
    },
    (req) => u.addCredential(req.body),
  );
  r.put(
    '/registry-credentials/:id',
    {
      schema: {
        params: idParams,
        body: registryCredentialUpdateSchema,
        response: { 200: registryCredentialSchema },
      },
    },
    (req) => u.updateCredential(req.params.id, req.body),
  );
  r.delete(
    '/registry-credentials/:id',
    { schema: { params: idParams, response: { 200: registryCredentialDeletedSchema } } },
    async (req) => {
      await u.deleteCredential(req.params.id);
      return { message: 'Credential deleted' };
    },
  );
}
