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
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('app is not listening');
  const url = `ws://127.0.0.1:${address.port}/ws/${query}`;
  const socket = new WebSocket(url, { headers: { cookie } });
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
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    messages,
    close: () => socket.close(),
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    /** Forgets the container state, as a browser that missed a message would have to. */
    forget: () => (state = null),
  };
}
