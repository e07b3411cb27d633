import {
  alertParamsSchema,
  alertRuleCreateSchema,
  alertRuleListSchema,
  alertRuleSchema,
  alertRuleToggleSchema,
  alertRuleUpdateSchema,
  okSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AlertsService } from './alerts.service.js';

/** The rule calls: list, create, update, toggle, delete; a bad field is a 400 naming it. */
export function alertRulesRoutes(app: FastifyInstance, opts: { alerts: AlertsService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const rules = () => opts.alerts.rules;
  const params = { params: alertParamsSchema };
  for (const url of ['/alerts/rules', '/alerts/rules/']) {
    api.get(url, { schema: { response: { 200: alertRuleListSchema } } }, () => rules().list());
    api.post(
      url,
      { schema: { body: alertRuleCreateSchema, response: { 200: alertRuleSchema } } },
      (request) => rules().create(request.body),
    );
  }
  api.get(
    '/alerts/rules/:id',
    { schema: { ...params, response: { 200: alertRuleSchema } } },
    (request) => rules().get(request.params.id),
  );
  api.put(
    '/alerts/rules/:id',
    { schema: { ...params, body: alertRuleUpdateSchema, response: { 200: alertRuleSchema } } },
    (request) => rules().update(request.params.id, request.body),
  );
  api.patch(
    '/alerts/rules/:id/toggle',
    { schema: { ...params, body: alertRuleToggleSchema, response: { 200: alertRuleSchema } } },
    (request) => rules().toggle(request.params.id, request.body.enabled),
  );
  api.delete(
    '/alerts/rules/:id',
    { schema: { ...params, response: { 200: okSchema } } },
    async (request) => {
      await rules().delete(request.params.id);
      return { ok: true as const };
    },
  );
}
