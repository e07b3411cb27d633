import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { webSocketBytes } from './websocket-bytes.js';

let server: WebSocketServer | undefined;
afterEach(() => server?.close());

async function pair(): Promise<{ client: WebSocket; messages: Buffer[] }> {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  const messages: Buffer[] = [];
  server.on('connection', (ws) => ws.on('message', (data: Buffer) => messages.push(data)));
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const client = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
  await once(client, 'open');
  return { client, messages };
}

describe('webSocketBytes', () => {
  it('sends a corked batch of writes as one message, bytes in order', async () => {
    const { client, messages } = await pair();
    const stream = webSocketBytes(client);
    stream.cork();
    stream.write(Buffer.from('frame-header|'));
    stream.write(Buffer.from('payload|'));
    stream.write(Buffer.from('next-frame'));
    stream.uncork();
    await new Promise<void>((resolve) => stream.write(Buffer.from('!'), () => resolve()));
    await new Promise((r) => setTimeout(r, 50));
    expect(Buffer.concat(messages).toString()).toBe('frame-header|payload|next-frame!');
    // ws's own stream sent four messages here.
    expect(messages.length).toBeLessThanOrEqual(2);
    client.close();
  });

  it('reads what the other end sends', async () => {
    const { client } = await pair();
    const stream = webSocketBytes(client);
    const [peer] = [...(server?.clients ?? [])];
    peer?.send(Buffer.from('hello'));
    const [chunk] = (await once(stream, 'data')) as [Buffer];
    expect(chunk.toString()).toBe('hello');
    client.close();
  });
});
