import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signedInCookie, type TestApp } from '../test/test-app.js';

/**
 * Sends hostile bodies to every API route the app registers: each must answer a 4xx with a
 * `detail`, never a 5xx, and a protected route must refuse a caller without a session.
 */
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
});
afterAll(() => t.close());

const PUBLIC_ROUTES = new Set([
  'POST /api/v2/auth/login',
  'GET /api/health',
  'HEAD /api/health',
  // Agents authenticate with their own headers (modules/agents tests the refusals).
  'POST /api/agents/enroll',
  'GET /api/agents/connect',
  // Single sign-on before anyone signed in (the sso tests check its refusals).
  'GET /api/v2/auth/sso',
  'HEAD /api/v2/auth/sso',
  'GET /api/v2/auth/sso/start',
  'HEAD /api/v2/auth/sso/start',
  'GET /api/v2/auth/sso/callback',
  'HEAD /api/v2/auth/sso/callback',
]);
const apiRoutes = () =>
  t.app.routeTable.filter(
    (r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && r.method !== 'OPTIONS',
  );
const withBody = () => apiRoutes().filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method));

const hostileBodies: [string, string][] = [
  ['malformed JSON', '{"username": "admin", '],
  [
    'wrong types',
    JSON.stringify({ username: 42, password: true, polling_interval: 'x', view_mode: 7 }),
  ],
  ['an array instead of an object', '[1, 2, 3]'],
  ['unknown fields', JSON.stringify({ __unknown_field__: 1 })],
  ['a prototype-pollution key', '{"__proto__": {"admin": true}}'],
  ['a body over 1 MB', JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) })],
];

describe('every API route under hostile input', () => {
  it('covers the routes of this build', () => {
    const names = apiRoutes().map((r) => `${r.method} ${r.url}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/v2/auth/login',
        'POST /api/v2/auth/change-password',
        'PUT /api/settings',
        'PATCH /api/v2/user/preferences',
        'POST /api/user/view-mode',
      ]),
    );
  });

  it.each(hostileBodies)('answers 4xx with a detail for %s', async (_name, payload) => {
    for (const route of withBody()) {
      const res = await t.app.inject({
        method: route.method as 'POST',
        url: route.url,
        headers: { cookie, 'content-type': 'application/json' },
        payload,
      });
      const where = `${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 120)}`;
      expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, where).toBeLessThan(500);
      expect(typeof res.json<{ detail: unknown }>().detail, where).toBe('string');
    }
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie, 'content-type': 'text/plain' },
      payload: 'polling_interval=5',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toHaveProperty('detail');
  });

  it('refuses every protected route without a session, an unknown route with 404', async () => {
    for (const route of apiRoutes()) {
      if (PUBLIC_ROUTES.has(`${route.method} ${route.url}`)) continue;
      const res = await t.app.inject({ method: route.method as 'GET', url: route.url });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json()).toEqual({ detail: 'Not authenticated' });
    }
    const unknown = await t.app.inject({ url: '/api/nothing-here', headers: { cookie } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Route GET /api/nothing-here not found' });
  });

  it('wrote nothing for any of it', async () => {
    const settings = await t.app.inject({ url: '/api/settings', headers: { cookie } });
    expect(settings.json()).toMatchObject({ polling_interval: 2, timezone_offset: 0 });
    const prefs = await t.app.inject({ url: '/api/v2/user/preferences', headers: { cookie } });
    expect(prefs.json()).toMatchObject({ view_mode: 'standard', sidebar_collapsed: false });
  });
});
