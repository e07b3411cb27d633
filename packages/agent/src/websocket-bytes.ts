import type { Duplex } from 'node:stream';
import { createWebSocketStream, type WebSocket } from 'ws';

/**
 * An open WebSocket as the byte stream an HTTP/2 session runs on, for both ends of an agent's
 * connection. ws's own stream sends every write as a message of its own, and Node's HTTP/2
 * hands its socket several buffers per write (frame headers and payloads apart, corked), so
 * one engine request became several WebSocket frames, each with its header, mask and system
 * call: most of what Berth spent beyond direct TCP (bench/agents profile). Here a corked batch,
 * and whatever was written while a send was under way, goes as one message.
 */
export function webSocketBytes(socket: WebSocket): Duplex {
  const stream = createWebSocketStream(socket);
  stream._writev = (chunks, callback) => {
    const bytes =
      chunks.length === 1
        ? (chunks[0]?.chunk as Buffer)
        : Buffer.concat(chunks.map((c) => c.chunk as Buffer));
    socket.send(bytes, callback);
  };
  return stream;
}
