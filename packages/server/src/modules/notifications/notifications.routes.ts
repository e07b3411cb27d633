import {
  channelCreateSchema,
  channelDependentsSchema,
  channelParamsSchema,
  channelTestResultSchema,
  channelUpdateSchema,
  notificationChannelSchema,
  templatePreviewRequestSchema,
  templatePreviewSchema,
  templateVariablesSchema,
  webPushKeySchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ChannelRules, NotificationsService } from './notifications.service.js';

/** Notification channels and templates. */
export function notificationsRoutes(
  app: FastifyInstance,
  opts: { notifications: NotificationsService; channelRules: ChannelRules },
): void {
  const n = opts.notifications;
  const rules = opts.channelRules;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/notifications/channels';
  const params = channelParamsSchema;

  r.get(base, { schema: { response: { 200: z.array(notificationChannelSchema) } } }, () =>
    n.channels.list(),
  );
  r.post(
    base,
    { schema: { body: channelCreateSchema, response: { 200: notificationChannelSchema } } },
    (req) => n.channels.create(req.body),
  );
  r.put(
    `${base}/:id`,
    { schema: { params, body: channelUpdateSchema, response: { 200: notificationChannelSchema } } },
    (req) => n.channels.update(req.params.id, req.body),
  );
  r.delete(
    `${base}/:id`,
    { schema: { params, response: { 200: z.object({ status: z.literal('success') }) } } },
    async (req) => {
      await n.deleteChannel(req.params.id, rules);
      return { status: 'success' as const };
    },
  );
  r.post(
    `${base}/:id/test`,
    {
      schema: {
        params,
        body: z.looseObject({}).nullish(),
        response: { 200: channelTestResultSchema },
      },
    },
    (req) => n.test(req.params.id),
  );
  r.get(
    `${base}/:id/dependent-alerts`,
    { schema: { params, response: { 200: channelDependentsSchema } } },
    (req) => n.dependents(req.params.id, rules),
  );
  r.get('/notifications/web-push/key', { schema: { response: { 200: webPushKeySchema } } }, () =>
    n.webPushKey(),
  );
  r.get(
    '/notifications/template-variables',
    { schema: { response: { 200: templateVariablesSchema } } },
    () => n.templateVariables(),
  );
  r.post(
    '/notifications/template-preview',
    { schema: { body: templatePreviewRequestSchema, response: { 200: templatePreviewSchema } } },
    (req) => n.preview(req.body),
  );
}
