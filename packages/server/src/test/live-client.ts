import {
  applyContainersUpdate,
  liveMessageSchema,
  type LiveContainersState,
  type LiveMessage,
} from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';

/**
 * A browser stand-in on the live channel that keeps every message with its arrival time.
 * Like the browser it applies containers_update deltas (asking for a full state after a
 * gap); each recorded containers_update carries, in `data.containers`, every container as
 * the state after it stands (not only those the delta added), so tests can read it whole.
 */
export async function openLiveClient(app: FastifyInstance, cookie: string, query = '') {
  // Berth's browser opts in to the delta protocol; a query of the test's own adds to it.
  const socket = socketTo(app, cookie, `?protocol=2${query.replace(/^\?/, '&')}`);
  const messages: { at: number; message: LiveMessage; bytes: number }[] = [];
  let state: LiveContainersState | null = null;
  socket.on('message', (raw: Buffer) => {
    const message = liveMessageSchema.parse(JSON.parse(raw.toString()));
    if (message.type === 'containers_update') {
      const next = applyContainersUpdate(state, message.data);
      if (next === null) {
        socket.send(JSON.stringify({ type: 'containers_resync' }));
        return;
      }
      state = next;
      message.data = { ...message.data, containers: next.containers };
    }
    messages.push({ at: Date.now(), message, bytes: raw.length });
  });
  await opened(socket);
  return {
    messages,
    close: () => socket.close(),
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    /** Forgets the container state, as a browser that missed a message would have to. */
    forget: () => (state = null),
  };
}

/**
 * A socket to the app's live channel with the session cookie and the URL's query; listeners
 * go on before it opens (the server sends at once), then `opened`.
 */
export function socketTo(app: FastifyInstance, cookie: string, query: string): WebSocket {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('app is not listening');
  return new WebSocket(`ws://127.0.0.1:${address.port}/ws/${query}`, { headers: { cookie } });
}

export function opened(socket: WebSocket): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
}
