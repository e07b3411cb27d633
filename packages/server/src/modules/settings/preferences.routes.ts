import {
  eventSortOrderBodySchema,
  preferencesPatchSchema,
  preferencesSchema,
  viewModeBodySchema,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../auth/index.js';
import type { PreferencesService } from './preferences.service.js';

/** Preferences, plus the two single-value calls the spec names (view mode, event sort order). */
export function preferencesRoutes(
  app: FastifyInstance,
  opts: { preferences: PreferencesService },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const prefs = opts.preferences;

  api.get('/v2/user/preferences', { schema: { response: { 200: preferencesSchema } } }, (request) =>
    prefs.get(sessionOf(request).user.id),
  );
  api.patch(
    '/v2/user/preferences',
    { schema: { body: preferencesPatchSchema, response: { 200: preferencesSchema } } },
    (request) => prefs.patch(sessionOf(request).user.id, request.body),
  );

  api.get(
    '/user/view-mode',
    { schema: { response: { 200: viewModeBodySchema } } },
    async (request) => ({
      view_mode: (await prefs.get(sessionOf(request).user.id)).view_mode,
    }),
  );
  api.post(
    '/user/view-mode',
    { schema: { body: viewModeBodySchema, response: { 200: viewModeBodySchema } } },
    async (request) => {
      const next = await prefs.patch(sessionOf(request).user.id, {
        view_mode: request.body.view_mode,
      });
      return { view_mode: next.view_mode };
    },
  );

  api.get(
    '/user/event-sort-order',
    { schema: { response: { 200: eventSortOrderBodySchema } } },
    async (request) => ({
      sort_order: (await prefs.get(sessionOf(request).user.id)).event_sort_order,
    }),
  );
  api.post(
    '/user/event-sort-order',
    { schema: { body: eventSortOrderBodySchema, response: { 200: eventSortOrderBodySchema } } },
    async (request) => {
      const next = await prefs.patch(sessionOf(request).user.id, {
        event_sort_order: request.body.sort_order,
      });
      return { sort_order: next.event_sort_order };
    },
  );
}
