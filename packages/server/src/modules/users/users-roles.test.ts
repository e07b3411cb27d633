import { USER_ROLES, type UserRole } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { permissionOf, type Permission } from '../auth/index.js';
import { userSignedIn } from '../../test/users.js';

/**
 * Every /api route (read from app.routeTable, so a new route is covered without editing this
 * file) against a signed-in user of each role: 403 naming the role and the permission needed
 * exactly when the role does not reach the route, and neither 401 nor 403 otherwise.
 */
let t: TestApp;
const cookies = {} as Record<UserRole, string>;
beforeAll(async () => {
  t = await buildTestApp();
  cookies.admin = await signedInCookie(t.app);
  for (const role of ['operator', 'viewer'] as const) {
    cookies[role] = (await userSignedIn(t.app, cookies.admin, `${role}-user`, role)).cookie;
  }
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
// Reads first, and sign-outs last of all, so nothing a change does alters a later answer.
const apiRoutes = () =>
  t.app.routeTable
    .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .filter((r) => r.url !== '/api/v2/auth/logout')
    .map((r) => ({
      method: r.method as Method,
      url: r.url,
      name: `${r.method} ${r.url}`,
      permission: permissionOf(r.method, r.url),
    }))
    .sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'));
// Ids that match nothing, so a change allowed through finds nothing to change.
const fill = (url: string) => url.replace(/:[A-Za-z_]+/g, '999999');

const REACH: Record<UserRole, readonly Permission[]> = {
  viewer: ['public', 'read', 'account'],
  operator: ['public', 'read', 'operate', 'account'],
  admin: ['public', 'read', 'operate', 'admin', 'account'],
};

describe('a signed-in user on every API route', () => {
  for (const role of USER_ROLES) {
    it(`of role ${role} is refused with the permission needed exactly above its reach`, async () => {
      let checked = 0;
      for (const route of apiRoutes()) {
        const res = await t.app.inject({
          method: route.method,
          url: fill(route.url),
          headers: { cookie: cookies[role] },
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
        const where = `${role} → ${route.name} (${route.permission}): ${res.body}`;
        checked += 1;
        if (REACH[role].includes(route.permission)) {
          expect(res.body, where).not.toMatch(/Your role/);
          expect(res.statusCode, where).toBeLessThan(500);
          if (route.permission !== 'public') expect(res.statusCode, where).not.toBe(401);
        } else {
          expect(res.statusCode, where).toBe(403);
          expect(res.json(), where).toEqual({
            detail: `Your role "${role}" cannot do this; it needs "${route.permission}"`,
          });
        }
      }
      expect(checked).toBeGreaterThan(50);
    });
  }

  it('lists the users routes as admin, reads included', () => {
    const users = apiRoutes().filter((r) => r.url.startsWith('/api/users'));
    expect(users.length).toBe(7); // with reset-two-factor
    for (const route of users) expect(route.permission, route.name).toBe('admin');
  });
});
