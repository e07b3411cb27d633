import { globalSettingsSchema, updateSettingsRequestSchema } from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SettingsService } from './settings.service.js';

/** GET and PUT /settings: the global settings of spec 3 §3. */
export function settingsRoutes(app: FastifyInstance, opts: { settings: SettingsService }): void {
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
}
