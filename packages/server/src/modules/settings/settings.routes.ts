import {
  dismissUpdateRequestSchema,
  emptyBodySchema,
  globalSettingsSchema,
  updateSettingsRequestSchema,
  upgradeNoticeSchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../auth/index.js';
import type { SettingsService } from './settings.service.js';
import type { UpgradeNoticeService } from './upgrade-notice.service.js';

/** The global settings, the update card's dismissal and the upgrade notice. */
export function settingsRoutes(
  app: FastifyInstance,
  opts: { settings: SettingsService; upgradeNotice: UpgradeNoticeService },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/settings', { schema: { response: { 200: globalSettingsSchema } } }, () =>
    opts.settings.toResponse(),
  );
  api.put(
    '/settings',
    { schema: { body: updateSettingsRequestSchema, response: { 200: globalSettingsSchema } } },
    async (request) => {
      await opts.settings.update(request.body);
      return opts.settings.toResponse();
    },
  );

  // The update card's Dismiss, per version: the spec's path and our own name for it.
  for (const url of ['/user/dismiss-dockmon-update', '/user/dismiss-update']) {
    api.post(
      url,
      { schema: { body: dismissUpdateRequestSchema, response: { 200: globalSettingsSchema } } },
      async (request) => {
        await opts.settings.update({ dismissed_dockmon_update_version: request.body.version });
        return opts.settings.toResponse();
      },
    );
  }

  api.get('/upgrade-notice', { schema: { response: { 200: upgradeNoticeSchema } } }, (request) =>
    opts.upgradeNotice.get(sessionOf(request).user.id),
  );
  api.post(
    '/upgrade-notice/dismiss',
    { schema: { body: emptyBodySchema, response: { 200: upgradeNoticeSchema } } },
    (request) => opts.upgradeNotice.dismiss(sessionOf(request).user.id),
  );
}
