import type {
  AllSessionsResponse,
  AuditResponse,
  CreatedUser,
  SessionsResponse,
} from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { opened, socketTo } from '../../test/live-client.js';
import {
  buildTestApp,
  sessionCookieOf,
  signedInCookie,
  type TestApp,
} from '../../test/test-app.js';
import { USER_PASSWORD, userSignedIn } from '../../test/users.js';

/** Sessions per user: the owner's list and sign-outs, the admin's view of all, the audit rows. */
let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await buildTestApp();
  admin = await signedInCookie(t.app);
});
afterEach(() => t.close());

const call = (
  cookie: string,
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
  url: string,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { cookie, ...headers },
    ...(method === 'POST' || method === 'PATCH' ? { payload: {} } : {}),
  });
const me = (cookie: string) => call(cookie, 'GET', '/api/v2/auth/me');
const own = async (cookie: string) =>
  (await call(cookie, 'GET', '/api/v2/auth/sessions')).json<SessionsResponse>().sessions;

/** Signs in as a user again, from a browser named by its user agent. */
async function signIn(username: string, userAgent: string, address = '10.1.2.3') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v2/auth/login',
    headers: { 'user-agent': userAgent },
    remoteAddress: address,
    payload: { username, password: USER_PASSWORD },
  });
  return sessionCookieOf(res);
}

/** A socket on the live channel and when it closes, with which code and reason. */
async function liveSocket(cookie: string) {
  const socket = socketTo(t.app, cookie, '?protocol=2');
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await opened(socket);
  return { socket, closed };
}

describe('a user’s own sessions', () => {
  it('lists them with address, browser and method, marks this one, and never sends a token', async () => {
    const user = await userSignedIn(t.app, admin, 'sally', 'viewer');
    const chrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
    const second = await signIn('sally', chrome, '10.4.4.4');
    const res = await call(second, 'GET', '/api/v2/auth/sessions');
    expect(res.statusCode).toBe(200);
    const { sessions } = res.json<SessionsResponse>();
    expect(sessions).toHaveLength(2);
    const current = sessions.find((s) => s.current);
    expect(current).toMatchObject({ address: '10.4.4.4', user_agent: chrome, method: 'password' });
    expect(current?.id).toMatch(/^[0-9a-f]{16}$/);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    // Neither the cookie's token nor its hash leaves the server.
    for (const cookie of [user.cookie, second]) {
      expect(res.body).not.toContain(cookie.split('=')[1]);
    }
    expect(res.body).not.toMatch(/token|[0-9a-f]{64}/);
    // Another user's sessions are not in the list.
    expect((await own(admin)).map((s) => s.id)).not.toContain(current?.id);
  });

  it('ends one of them, whose socket closes at once; another user’s answers 404', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const first = await userSignedIn(t.app, admin, 'ursula', 'operator');
    const second = await signIn('ursula', 'second-browser/1');
    const live = await liveSocket(first.cookie);
    const target = (await own(second)).find((s) => !s.current);
    expect(target).toBeDefined();

    // Someone else cannot end it, not even knowing its id: it does not exist for them.
    const other = await userSignedIn(t.app, admin, 'oscar', 'viewer');
    const refused = await call(other.cookie, 'DELETE', `/api/v2/auth/sessions/${target?.id}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ detail: 'Session not found' });
    expect((await me(first.cookie)).statusCode).toBe(200);

    const started = Date.now();
    const ended = await call(second, 'DELETE', `/api/v2/auth/sessions/${target?.id}`);
    expect(ended.statusCode).toBe(200);
    expect(ended.cookies.find((c) => c.name === 'berth_session')).toBeUndefined();
    const { code, reason } = await live.closed;
    expect(code).toBe(1008);
    expect(reason).toBe('Signed out from another session');
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await me(first.cookie)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
    expect((await call(second, 'DELETE', `/api/v2/auth/sessions/${target?.id}`)).statusCode).toBe(
      404,
    );
  });

  it('ending this very session signs out and clears the cookie', async () => {
    const user = await userSignedIn(t.app, admin, 'tina', 'viewer');
    const [current] = await own(user.cookie);
    const res = await call(user.cookie, 'DELETE', `/api/v2/auth/sessions/${current?.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'berth_session')?.value).toBe('');
    expect((await me(user.cookie)).statusCode).toBe(401);
  });

  it('signs out everywhere else: every other session and socket ends, this one stays', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const first = await userSignedIn(t.app, admin, 'vince', 'viewer');
    const second = await signIn('vince', 'b/2');
    const third = await signIn('vince', 'c/3');
    const sockets = [await liveSocket(first.cookie), await liveSocket(second)];
    const adminLive = await liveSocket(admin);
    let adminClosed = false;
    adminLive.socket.on('close', () => (adminClosed = true));

    const res = await call(third, 'POST', '/api/v2/auth/sessions/end-others');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    for (const { closed } of sockets) {
      expect(await closed).toEqual({ code: 1008, reason: 'Signed out everywhere' });
    }
    expect((await me(first.cookie)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(third)).statusCode).toBe(200);
    expect((await own(third)).map((s) => s.current)).toEqual([true]);
    // Nobody else's sessions moved.
    expect((await me(admin)).statusCode).toBe(200);
    expect(adminClosed).toBe(false);
    adminLive.socket.close();
  });

  it('is a session’s own business: API keys cannot list or end sessions', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { cookie: admin },
      payload: { name: 'sessions-key', scope: 'admin' },
    });
    const bearer = { authorization: `Bearer ${created.json<{ key: string }>().key}` };
    for (const [method, url] of [
      ['GET', '/api/v2/auth/sessions'],
      ['POST', '/api/v2/auth/sessions/end-others'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer, payload: {} });
      expect(res.statusCode, url).toBe(403);
    }
  });
});

describe('the admin’s view of every session', () => {
  it('lists every user’s sessions with the username and ends any one; others are refused', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const user = await userSignedIn(t.app, admin, 'wanda', 'operator');
    const live = await liveSocket(user.cookie);
    const res = await call(admin, 'GET', '/api/sessions');
    expect(res.statusCode).toBe(200);
    const { sessions } = res.json<AllSessionsResponse>();
    expect(sessions.map((s) => s.username).sort()).toEqual(['admin', 'wanda']);
    expect(sessions.find((s) => s.username === 'admin')?.current).toBe(true);
    const wanda = sessions.find((s) => s.username === 'wanda');
    expect(wanda?.user_id).toBe(user.id);

    for (const role of ['operator', 'viewer'] as const) {
      const other = await userSignedIn(t.app, admin, `no-${role}`, role);
      expect((await call(other.cookie, 'GET', '/api/sessions')).statusCode).toBe(403);
      const end = await call(other.cookie, 'DELETE', `/api/sessions/${wanda?.id}`);
      expect(end.statusCode).toBe(403);
    }

    expect((await call(admin, 'DELETE', `/api/sessions/${wanda?.id}`)).statusCode).toBe(200);
    expect(await live.closed).toEqual({ code: 1008, reason: 'Signed out by an admin' });
    expect((await me(user.cookie)).statusCode).toBe(401);
    expect((await call(admin, 'DELETE', `/api/sessions/${wanda?.id}`)).statusCode).toBe(404);
  });
});

describe('the audit log of users and sessions', () => {
  it('names users by username and sessions by id and owner, with readable actions', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: admin },
      payload: { username: 'xena', role: 'viewer' },
    });
    const { user } = created.json<CreatedUser>();
    await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      headers: { cookie: admin },
      payload: { role: 'operator' },
    });
    const other = await userSignedIn(t.app, admin, 'yuri', 'viewer');
    const yuriSession = (await call(admin, 'GET', '/api/sessions'))
      .json<AllSessionsResponse>()
      .sessions.find((s) => s.username === 'yuri');
    await call(admin, 'DELETE', `/api/sessions/${yuriSession?.id}`);
    await call(admin, 'POST', '/api/v2/auth/sessions/end-others');
    await call(admin, 'DELETE', `/api/users/${user.id}`);
    await call(admin, 'DELETE', `/api/users/${other.id}`);

    await t.app.services.audit.flush();
    const rows = (await call(admin, 'GET', '/api/audit?limit=1000')).json<AuditResponse>().entries;
    const of = (action: string) => rows.filter((r) => r.action === action).map((r) => r.target);
    expect(of('users.create').sort()).toEqual(['user xena', 'user yuri']);
    expect(of('users.update')).toEqual(['user xena']);
    // Named as the request arrived: a deleted user keeps its name in the log.
    expect(of('users.delete').sort()).toEqual(['user xena', 'user yuri']);
    expect(of('session.end')).toEqual([`session ${yuriSession?.id} (yuri)`]);
    expect(of('session.sign-out-everywhere')).toEqual([null]);
    expect(rows.some((r) => /users \d/.test(r.target ?? ''))).toBe(false);
  });
});
