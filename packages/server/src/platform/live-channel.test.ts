import { liveMessageSchema, type LiveMessage } from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildTestApp, login, signedInCookie, type TestApp } from '../test/test-app.js';

let t: TestApp;
let base: string;
beforeEach(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  base = `ws://127.0.0.1:${address.port}`;
});
afterEach(() => t.close());

/** Opens a socket and collects its messages until it closes. */
function connect(path: string, cookie?: string) {
  const socket = new WebSocket(`${base}${path}`, cookie ? { headers: { cookie } } : {});
  const messages: LiveMessage[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const next = (type: LiveMessage['type']) =>
    new Promise<LiveMessage>((resolve, reject) => {
      const found = messages.find((m) => m.type === type);
      if (found) {
        resolve(found);
        return;
      }
      const timer = setTimeout(() => reject(new Error(`no ${type} within 2 s`)), 2000);
      socket.on('message', (raw: Buffer) => {
        const message = liveMessageSchema.parse(JSON.parse(raw.toString()));
        if (message.type === type) {
          clearTimeout(timer);
          resolve(message);
        }
      });
    });
  socket.on('message', (raw: Buffer) =>
    messages.push(liveMessageSchema.parse(JSON.parse(raw.toString()))),
  );
  return { socket, closed, next };
}

describe('live channel', () => {
  it('closes with a policy violation when there is no session', async () => {
    expect(await connect('/ws/').closed).toEqual({ code: 1008, reason: 'Not authenticated' });
    expect((await connect('/ws', 'berth_session=forged').closed).code).toBe(1008);
  });

  it('closes with a policy violation until the first-login password change', async () => {
    const cookie = await login(t.app);
    expect(await connect('/ws/?protocol=2', cookie).closed).toEqual({
      code: 1008,
      reason: 'Password change required',
    });
  });

  it('sends initial_state on connect and answers ping with pong, on /ws/ and /ws', async () => {
    const cookie = await signedInCookie(t.app);
    for (const path of ['/ws/?protocol=2', '/ws?protocol=2']) {
      const client = connect(path, cookie);
      const initial = await client.next('initial_state');
      expect(initial).toMatchObject({
        type: 'initial_state',
        data: { blackout: { is_active: false } },
      });
      // The containers came in the full containers_update just before: not twice.
      expect(initial).not.toHaveProperty(['data', 'containers']);
      client.socket.send('not json');
      client.socket.send(JSON.stringify({ type: 'ping' }));
      expect(await client.next('pong')).toEqual({ type: 'pong' });
      client.socket.close();
    }
  });

  it('fans published messages out to every browser and closes sockets at logout', async () => {
    const cookie = await signedInCookie(t.app);
    const a = connect('/ws/?protocol=2', cookie);
    const b = connect('/ws/?protocol=2', cookie);
    await Promise.all([a.next('initial_state'), b.next('initial_state')]);
    t.app.services.hub.publish({ type: 'host_removed', data: { host_id: 'h1' } });
    expect(await a.next('host_removed')).toEqual({ type: 'host_removed', data: { host_id: 'h1' } });
    expect(await b.next('host_removed')).toEqual({ type: 'host_removed', data: { host_id: 'h1' } });
    await t.app.inject({ method: 'POST', url: '/api/v2/auth/logout', headers: { cookie } });
    expect((await a.closed).code).toBe(1008);
  });
});
