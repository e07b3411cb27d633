import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  login,
  signedInCookie,
  TEST_ADMIN,
  type TestApp,
} from '../../test/test-app.js';
import { resetPassword } from './index.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const me = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/v2/auth/me', headers: { cookie } });

describe('resetPassword', () => {
  it('a one-time password that must be changed at sign-in, every session ended', async () => {
    const first = await signedInCookie(t.app);
    const second = await login(t.app, CHANGED_PASSWORD);
    const result = await resetPassword(t.app.services.db, TEST_ADMIN.username);
    if (!result.ok) throw new Error('reset failed');
    expect(result.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: TEST_ADMIN.username, password: result.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: { is_first_login: boolean } }>().user.is_first_login).toBe(true);
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: TEST_ADMIN.username, password: CHANGED_PASSWORD },
    });
    expect(old.statusCode).toBe(401);
  });

  it('an unknown user changes nothing and answers the names there are', async () => {
    const cookie = await signedInCookie(t.app);
    expect(await resetPassword(t.app.services.db, 'nobody')).toEqual({
      ok: false,
      usernames: ['admin'],
    });
    expect((await me(cookie)).statusCode).toBe(200);
  });
});
