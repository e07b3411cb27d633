import { liveMessageSchema, type LiveMessage } from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';

/** A browser stand-in on the live channel that keeps every message with its arrival time. */
export async function openLiveClient(app: FastifyInstance, cookie: string) {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('app is not listening');
  const socket = new WebSocket(`ws://127.0.0.1:${address.port}/ws/`, { headers: { cookie } });
  const messages: { at: number; message: LiveMessage }[] = [];
  socket.on('message', (raw: Buffer) => {
    messages.push({ at: Date.now(), message: liveMessageSchema.parse(JSON.parse(raw.toString())) });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { messages, close: () => socket.close() };
}
