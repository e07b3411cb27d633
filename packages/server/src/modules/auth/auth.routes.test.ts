import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  login,
  sessionCookieOf,
  signedInCookie,
  TEST_ADMIN,
  type TestApp,
} from '../../test/test-app.js';
import { resetPassword } from './index.js';
import { hashPassword } from './password.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const post = (url: string, payload: unknown, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: cookie ? { cookie } : {},
  });

const postFrom = (remoteAddress: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/v2/auth/login', payload, remoteAddress });

describe('sign-in', () => {
  it('opens a server-side session in an HttpOnly, SameSite=Strict cookie', async () => {
    const res = await post('/api/v2/auth/login', TEST_ADMIN);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: {
        id: 1,
        username: 'admin',
        display_name: null,
        is_first_login: true,
        role: 'admin',
        host_tags: [],
      },
    });
    const cookie = res.cookies.find((c) => c.name === 'berth_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
    expect(cookie?.secure).toBeUndefined();
    const stored = await t.app.services.db.selectFrom('sessions').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).not.toBe(cookie?.value);
  });

  it('marks the cookie Secure when BERTH_SECURE_COOKIES is set', async () => {
    const secure = await buildTestApp({ BERTH_SECURE_COOKIES: 'true' });
    const res = await secure.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: TEST_ADMIN,
    });
    expect(res.cookies.find((c) => c.name === 'berth_session')?.secure).toBe(true);
    await secure.close();
  });

  it('answers the same 401 for a wrong password and an unknown user', async () => {
    const wrong = await post('/api/v2/auth/login', { username: 'admin', password: 'nope-nope' });
    const unknown = await post('/api/v2/auth/login', { username: 'ghost', password: 'nope-nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Invalid username or password' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('slows a username down after failures without locking its owner out', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await postFrom(`203.0.113.${i}`, { username: 'admin', password: 'bad-bad' });
      expect(res.statusCode).toBe(401);
    }
    const started = Date.now();
    const owner = await postFrom('198.51.100.7', TEST_ADMIN);
    expect(owner.statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // the first step of the delay
  });

  it('treats unknown usernames exactly like known ones, revealing nothing', async () => {
    const sixth = async (username: string) => {
      for (let i = 0; i < 5; i++)
        await postFrom(`203.0.113.${i}`, { username, password: 'bad-bad' });
      const started = Date.now();
      const res = await postFrom('203.0.113.99', { username, password: 'bad-bad' });
      return { status: res.statusCode, body: res.body, waited: Date.now() - started };
    };
    const [known, unknown] = await Promise.all([sixth('admin'), sixth('ghost')]);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toBe(known.body);
    expect(known.waited).toBeGreaterThanOrEqual(900);
    expect(unknown.waited).toBeGreaterThanOrEqual(900);
  });

  it('answers 429 after repeated failures from one address across usernames', async () => {
    for (let i = 0; i < 20; i++)
      await post('/api/v2/auth/login', { username: `u${i}`, password: 'bad-bad' });
    expect((await post('/api/v2/auth/login', TEST_ADMIN)).statusCode).toBe(429);
  });

  it('names the missing field', async () => {
    const res = await post('/api/v2/auth/login', { password: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Username is required' });
  });
});

describe('sessions', () => {
  it('answers 401 without a cookie, with a forged one and after logout', async () => {
    expect((await t.app.inject({ url: '/api/v2/auth/me' })).statusCode).toBe(401);
    const forged = await t.app.inject({
      url: '/api/v2/auth/me',
      headers: { cookie: 'berth_session=forged' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ detail: 'Not authenticated' });
    const cookie = await signedInCookie(t.app);
    expect((await t.app.inject({ url: '/api/v2/auth/me', headers: { cookie } })).statusCode).toBe(
      200,
    );
    expect((await post('/api/v2/auth/logout', undefined, cookie)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v2/auth/me', headers: { cookie } })).statusCode).toBe(
      401,
    );
  });

  it('refuses an expired session', async () => {
    const cookie = await signedInCookie(t.app);
    await t.app.services.db
      .updateTable('sessions')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .execute();
    expect((await t.app.inject({ url: '/api/v2/auth/me', headers: { cookie } })).statusCode).toBe(
      401,
    );
  });

  it('survives a restart', async () => {
    const cookie = await signedInCookie(t.app);
    await t.restart();
    expect((await t.app.inject({ url: '/api/v2/auth/me', headers: { cookie } })).statusCode).toBe(
      200,
    );
  });
});

describe('first login', () => {
  it('allows only me, change-password and logout until the password is changed', async () => {
    const cookie = await login(t.app);
    const settings = await t.app.inject({ url: '/api/settings', headers: { cookie } });
    expect(settings.statusCode).toBe(403);
    expect(settings.json()).toEqual({ detail: 'Password change required' });
    expect((await t.app.inject({ url: '/api/v2/auth/me', headers: { cookie } })).statusCode).toBe(
      200,
    );
    const changed = await post(
      '/api/v2/auth/change-password',
      { current_password: TEST_ADMIN.password, new_password: CHANGED_PASSWORD },
      cookie,
    );
    expect(changed.statusCode).toBe(200);
    const me = await t.app.inject({ url: '/api/v2/auth/me', headers: { cookie } });
    expect(me.json()).toMatchObject({ user: { is_first_login: false } });
    expect((await t.app.inject({ url: '/api/settings', headers: { cookie } })).statusCode).toBe(
      200,
    );
  });

  it('generates and prints a password once when none is configured', async () => {
    const lines: string[] = [];
    const origWrite = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    };
    try {
      const generated = await buildTestApp({ BERTH_ADMIN_PASSWORD: '', BERTH_LOG_LEVEL: 'info' });
      await generated.restart();
      await generated.close();
    } finally {
      process.stdout.write = origWrite;
    }
    const printed = lines.filter((l) => l.includes('generated password'));
    expect(printed).toHaveLength(1);
  });
});

describe('password and profile', () => {
  it('rejects a wrong current password, a short one and an unchanged one', async () => {
    const cookie = await signedInCookie(t.app);
    const change = (current_password: string, new_password: string) =>
      post('/api/v2/auth/change-password', { current_password, new_password }, cookie);
    const wrong = await change('not-the-password', 'another-pass-3');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Current password is incorrect' });
    const short = await change(CHANGED_PASSWORD, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json<{ detail: string }>().detail).toBe('Password must be at least 8 characters');
    expect((await change(CHANGED_PASSWORD, CHANGED_PASSWORD)).statusCode).toBe(400);
    expect((await login(t.app, CHANGED_PASSWORD)).length).toBeGreaterThan(0);
  });

  it('updates the profile and refuses a username that is taken', async () => {
    const cookie = await signedInCookie(t.app);
    const now = new Date().toISOString();
    await t.app.services.db
      .insertInto('users')
      .values({
        username: 'bob',
        display_name: null,
        password_hash: await hashPassword('bob-pass-1'),
        is_first_login: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const taken = await post(
      '/api/v2/auth/update-profile',
      { username: 'BOB', display_name: null },
      cookie,
    );
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ detail: 'Username already taken' });
    const ok = await post(
      '/api/v2/auth/update-profile',
      { username: 'root', display_name: 'Ops' },
      cookie,
    );
    expect(ok.json()).toEqual({
      user: {
        id: 1,
        username: 'root',
        display_name: 'Ops',
        is_first_login: false,
        role: 'admin',
        host_tags: [],
      },
    });
  });

  it('stores passwords as argon2id hashes', async () => {
    const row = await t.app.services.db
      .selectFrom('users')
      .select('password_hash')
      .executeTakeFirstOrThrow();
    expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
    expect(sessionCookieOf).toBeTypeOf('function');
  });
});

const me = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/v2/auth/me', headers: { cookie } });

describe('password reset (berth reset-password)', () => {
  it('a one-time password that must be changed at sign-in, every session ended', async () => {
    const first = await signedInCookie(t.app);
    const second = await login(t.app, CHANGED_PASSWORD);
    const result = await resetPassword(t.app.services.db, TEST_ADMIN.username);
    if (!result.ok) throw new Error('reset failed');
    expect(result.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    const res = await post('/api/v2/auth/login', { ...TEST_ADMIN, password: result.password });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: { is_first_login: boolean } }>().user.is_first_login).toBe(true);
    const old = await post('/api/v2/auth/login', { ...TEST_ADMIN, password: CHANGED_PASSWORD });
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
