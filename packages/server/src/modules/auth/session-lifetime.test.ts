import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  login,
  signedInCookie,
  type TestApp,
} from '../../test/test-app.js';
import { SESSION_MAX_AGE_MS } from './auth.service.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(() => t.close());

const me = (cookie: string) => t.app.inject({ url: '/api/v2/auth/me', headers: { cookie } });

/** A signed-in socket and the close it receives. */
async function openSocket(cookie: string) {
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const socket = new WebSocket(`ws://127.0.0.1:${address.port}/ws/`, { headers: { cookie } });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('message', () => resolve()); // initial_state: the session was accepted
    socket.once('error', reject);
  });
  return { socket, closed };
}

describe('session lifetime', () => {
  it('ends a session 30 days after sign-in even when it is used every day', async () => {
    const cookie = await signedInCookie(t.app);
    const signedInAt = new Date(Date.now() - SESSION_MAX_AGE_MS + 60_000).toISOString();
    await t.app.services.db
      .updateTable('sessions')
      .set({ created_at: signedInAt, last_seen_at: signedInAt })
      .execute();
    // A use now would extend the idle timeout, but not past the absolute end.
    expect((await me(cookie)).statusCode).toBe(200);
    const row = await t.app.services.db
      .selectFrom('sessions')
      .select('expires_at')
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at)).toBeLessThanOrEqual(
      Date.parse(signedInAt) + SESSION_MAX_AGE_MS,
    );
    const tooOld = new Date(Date.now() - SESSION_MAX_AGE_MS - 1000).toISOString();
    await t.app.services.db.updateTable('sessions').set({ created_at: tooOld }).execute();
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('a password change ends the other sessions and closes their sockets at once', async () => {
    const first = await signedInCookie(t.app);
    const second = await login(t.app, CHANGED_PASSWORD);
    const otherSocket = await openSocket(second);
    const ownSocket = await openSocket(first);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/change-password',
      headers: { cookie: first },
      payload: { current_password: CHANGED_PASSWORD, new_password: 'third-pass-3' },
    });
    expect(res.statusCode).toBe(200);
    expect(await otherSocket.closed).toEqual({ code: 1008, reason: 'Signed out' });
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(first)).statusCode).toBe(200);
    expect(ownSocket.socket.readyState).toBe(WebSocket.OPEN);
    ownSocket.socket.close();
  });

  it("closes the socket of a session that expired or was deleted on the hub's check", async () => {
    const cookie = await signedInCookie(t.app);
    const live = await openSocket(cookie);
    const { hub, auth } = t.app.services;
    await hub.closeEndedSessions((key) => auth.isSessionAlive(key));
    expect(live.socket.readyState).toBe(WebSocket.OPEN);
    await t.app.services.db.deleteFrom('sessions').execute();
    await hub.closeEndedSessions((key) => auth.isSessionAlive(key));
    expect(await live.closed).toEqual({ code: 1008, reason: 'Session expired' });
  });
});
