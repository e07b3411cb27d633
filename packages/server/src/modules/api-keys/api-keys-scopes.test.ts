import { API_KEY_SCOPES, type ApiKeyScope, type CreatedApiKey } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { permissionOf, type Permission } from '../auth/index.js';

/**
 * Every /api route (read from app.routeTable, so a new route is covered without editing this
 * file) against a key of each scope: 403 naming the scope needed exactly when the route's
 * permission is above the key's scope, and neither 401 nor 403 otherwise.
 */
let t: TestApp;
const keys = {} as Record<ApiKeyScope, string>;
beforeAll(async () => {
  t = await buildTestApp();
  const cookie = await signedInCookie(t.app);
  for (const scope of API_KEY_SCOPES) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { cookie },
      payload: { name: `${scope} key`, scope },
    });
    keys[scope] = res.json<CreatedApiKey>().key;
  }
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
// Reads first, so nothing an allowed change does alters what a later read answers.
const apiRoutes = () =>
  t.app.routeTable
    .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .map((r) => ({
      method: r.method as Method,
      url: r.url,
      name: `${r.method} ${r.url}`,
      permission: permissionOf(r.method, r.url),
    }))
    .sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'));
// Ids that match nothing, so a change allowed through finds nothing to change.
const fill = (url: string) => url.replace(/:[A-Za-z_]+/g, '999999');

const REACH: Record<ApiKeyScope, readonly Permission[]> = {
  read: ['read'],
  operate: ['read', 'operate'],
  admin: ['read', 'operate', 'admin'],
};
const NEEDED: Record<Permission, string> = {
  public: '',
  read: 'read',
  operate: 'operate',
  admin: 'admin',
  account: '',
};

describe('a key on every API route', () => {
  it('finds routes of every permission in the table', () => {
    const seen = new Set(apiRoutes().map((r) => r.permission));
    expect([...seen].sort()).toEqual(['account', 'admin', 'operate', 'public', 'read']);
  });

  for (const scope of API_KEY_SCOPES) {
    it(`of scope ${scope} is refused with the scope needed exactly above its reach`, async () => {
      for (const route of apiRoutes()) {
        const res = await t.app.inject({
          method: route.method,
          url: fill(route.url),
          headers: { authorization: `Bearer ${keys[scope]}` },
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
        const where = `${scope} → ${route.name} (${route.permission}): ${res.body}`;
        if (route.permission === 'public') {
          // Public routes never look at the key (agents' own tokens may still answer 401);
          // single sign-on's redirects have no JSON body.
          expect(res.body, where).not.toMatch(/API key/);
        } else if (route.permission === 'account') {
          expect(res.statusCode, where).toBe(403);
          expect(res.json(), where).toEqual({
            detail: 'API keys cannot call this route; sign in instead',
          });
        } else if (REACH[scope].includes(route.permission)) {
          expect([401, 403], where).not.toContain(res.statusCode);
          expect(res.statusCode, where).toBeLessThan(500);
        } else {
          expect(res.statusCode, where).toBe(403);
          expect(res.json(), where).toEqual({
            detail: `This API key's scope is "${scope}"; this route needs "${NEEDED[route.permission]}"`,
          });
        }
      }
    });
  }

  it('answers a HEAD as its GET: public probes stay public, account reads refuse keys', async () => {
    expect((await t.app.inject({ method: 'HEAD', url: '/api/health' })).statusCode).toBe(200);
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/api-keys',
      headers: { authorization: `Bearer ${keys.admin}` },
    });
    expect(head.statusCode).toBe(403);
  });
});
