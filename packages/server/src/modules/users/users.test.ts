import type { CreatedApiKey, CreatedUser, ManagedUser, UsersResponse } from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { socketTo, opened } from '../../test/live-client.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { USER_PASSWORD, userSignedIn } from '../../test/users.js';

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await buildTestApp();
  admin = await signedInCookie(t.app);
});
afterEach(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: admin },
    ...(payload === undefined ? {} : { payload }),
  });
const me = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/v2/auth/me', headers: { cookie } });

describe('users', () => {
  it('creates a user with a one-time password that must be changed, then lists, edits and deletes it', async () => {
    const created = await call('POST', '/api/users', {
      username: 'olga',
      display_name: 'Olga',
      email: 'olga@example.com',
      role: 'operator',
    });
    expect(created.statusCode).toBe(201);
    const { user, password } = created.json<CreatedUser>();
    expect(user).toMatchObject({ username: 'olga', role: 'operator', disabled: false });
    expect(user.is_first_login).toBe(true);
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(created.body).not.toMatch(/password_hash|argon/);

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: 'olga', password },
    });
    expect(login.json()).toMatchObject({ user: { role: 'operator', is_first_login: true } });

    const list = (await call('GET', '/api/users')).json<UsersResponse>();
    expect(list.users.map((u) => [u.username, u.role])).toEqual([
      ['admin', 'admin'],
      ['olga', 'operator'],
    ]);
    expect(JSON.stringify(list)).not.toContain(password);

    const edited = await call('PATCH', `/api/users/${user.id}`, { role: 'viewer', email: '' });
    expect(edited.json<ManagedUser>()).toMatchObject({ role: 'viewer', email: null });
    expect(
      (await call('POST', '/api/users', { username: 'olga', role: 'viewer' })).statusCode,
    ).toBe(409);
    expect((await call('DELETE', `/api/users/${user.id}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/users/${user.id}`)).statusCode).toBe(404);
  });

  it('names the field of bad input', async () => {
    const res = await call('POST', '/api/users', { username: 'x', role: 'root' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toMatch(/role/i);
    const email = await call('POST', '/api/users', { username: 'x', role: 'viewer', email: 'no' });
    expect(email.json<{ detail: string }>().detail).toMatch(/^Email must look like/);
  });

  it('keeps the last enabled admin: no demotion, disabling or deletion; no deleting oneself', async () => {
    const self = await call('DELETE', '/api/users/1');
    expect(self.statusCode).toBe(400);
    expect((await call('PATCH', '/api/users/1', { role: 'viewer' })).statusCode).toBe(409);
    const other = await userSignedIn(t.app, admin, 'second', 'admin');
    // With another enabled admin, either may be demoted.
    expect((await call('PATCH', `/api/users/${other.id}`, { role: 'viewer' })).statusCode).toBe(
      200,
    );
    expect((await call('PATCH', `/api/users/${other.id}`, { role: 'admin' })).statusCode).toBe(200);
    // Two admins: the first may go down to viewer, then the second is the last.
    expect((await call('PATCH', `/api/users/${other.id}`, { disabled: true })).statusCode).toBe(
      200,
    );
    const last = await call('PATCH', '/api/users/1', { role: 'operator' });
    expect(last.statusCode).toBe(409);
    expect(last.json<{ detail: string }>().detail).toMatch(/last enabled admin/);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/1',
      headers: { cookie: other.cookie },
    });
    // The disabled admin's session is gone, so it cannot even try.
    expect(deleted.statusCode).toBe(401);
  });

  it('ends a disabled user’s session and closes its socket within a second', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const viewer = await userSignedIn(t.app, admin, 'vera', 'viewer');
    const socket = socketTo(t.app, viewer.cookie, '?protocol=2');
    const closed = new Promise<{ code: number; at: number }>((resolve) =>
      socket.on('close', (code) => resolve({ code, at: Date.now() })),
    );
    await opened(socket);
    const started = Date.now();
    expect((await call('PATCH', `/api/users/${viewer.id}`, { disabled: true })).statusCode).toBe(
      200,
    );
    const { code, at } = await closed;
    expect(code).toBe(1008);
    expect(at - started).toBeLessThan(1000);
    expect((await me(viewer.cookie)).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: 'vera', password: USER_PASSWORD },
    });
    expect(login.statusCode).toBe(401);
    expect(login.json()).toEqual({ detail: 'This account is disabled' });
  });

  it('resets a password (change required, sessions ended) and ends sessions on request', async () => {
    const user = await userSignedIn(t.app, admin, 'rita', 'operator');
    const reset = await call('POST', `/api/users/${user.id}/reset-password`);
    expect((await me(user.cookie)).statusCode).toBe(401);
    const { password } = reset.json<{ password: string }>();
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: 'rita', password },
    });
    expect(login.json()).toMatchObject({ user: { is_first_login: true } });
    const again = await userSignedIn(t.app, admin, 'sam', 'viewer');
    expect((await call('POST', `/api/users/${again.id}/end-sessions`)).statusCode).toBe(200);
    expect((await me(again.cookie)).statusCode).toBe(401);
  });

  it('applies a role change to the next request, without signing in again', async () => {
    const user = await userSignedIn(t.app, admin, 'otto', 'operator');
    const action = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/batch',
        headers: { cookie: user.cookie },
        payload: {},
      });
    expect((await action()).statusCode).not.toBe(403);
    await call('PATCH', `/api/users/${user.id}`, { role: 'viewer' });
    expect((await action()).json()).toEqual({
      detail: 'Your role "viewer" cannot do this; it needs "operate"',
    });
  });
});

describe('API keys of users with roles', () => {
  it('a viewer’s operate key reaches only what the viewer may; its list holds only its keys', async () => {
    const viewer = await userSignedIn(t.app, admin, 'vic', 'viewer');
    await call('POST', '/api/api-keys', { name: 'admin key', scope: 'admin' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { cookie: viewer.cookie },
      payload: { name: 'vic key', scope: 'operate' },
    });
    const { key } = created.json<CreatedApiKey>();
    const bearer = { authorization: `Bearer ${key}` };
    const read = await t.app.inject({ method: 'GET', url: '/api/hosts', headers: bearer });
    expect(read.statusCode).toBe(200);
    const operate = await t.app.inject({
      method: 'POST',
      url: '/api/batch',
      headers: bearer,
      payload: {},
    });
    expect(operate.statusCode).toBe(403);
    expect(operate.json()).toEqual({
      detail: 'The key owner\'s role "viewer" cannot do this; it needs "operate"',
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/api-keys',
      headers: { cookie: viewer.cookie },
    });
    expect(list.json<{ keys: { name: string }[] }>().keys.map((k) => k.name)).toEqual(['vic key']);
    const adminKeys = (await call('GET', '/api/api-keys')).json<{
      keys: { id: number; name: string }[];
    }>();
    expect(adminKeys.keys.map((k) => k.name).sort()).toEqual(['admin key', 'vic key']);
    const adminKey = adminKeys.keys.find((k) => k.name === 'admin key');
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/api-keys/${adminKey?.id}`,
      headers: { cookie: viewer.cookie },
    });
    expect(revoke.statusCode).toBe(404);
    // A disabled owner's keys stop at once.
    await call('PATCH', `/api/users/${viewer.id}`, { disabled: true });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/hosts', headers: bearer })).statusCode,
    ).toBe(401);
  });
});
