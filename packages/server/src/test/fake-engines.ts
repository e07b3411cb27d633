import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';

// Tiny misbehaving "engines" on loopback, for the limit tests (not used by the app).

export interface FakeEngine {
  url: string;
  /** Bytes the server managed to hand to the socket. */
  written: () => number;
  close: () => Promise<void>;
}

async function listen(server: Server, where: string | number): Promise<FakeEngine> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((done) =>
    typeof where === 'string' ? server.listen(where, done) : server.listen(0, '127.0.0.1', done),
  );
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const state = server as Server & { written?: number };
  return {
    url: typeof where === 'string' ? `unix://${where}` : `tcp://127.0.0.1:${port}`,
    written: () => state.written ?? 0,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

/** Accepts connections and never says a word. */
export const silentEngine = (where: string | number = 0) =>
  listen(
    createServer(() => undefined),
    where,
  );

/** Answers every request with bytes that are not HTTP. */
export const garbageEngine = () =>
  listen(
    createServer((s) => s.once('data', () => s.write('\x00\x01garbage, not HTTP\r\n\r\n'))),
    0,
  );

/** An HTTP server whose handler gets each request; `written` counts the body bytes sent. */
export function httpEngine(
  handle: (path: string, res: ServerResponse, count: (n: number) => void) => void,
): Promise<FakeEngine> {
  const server = createHttpServer((req, res) => {
    res.on('error', () => undefined);
    handle(req.url ?? '/', res, (n) => {
      state.written = (state.written ?? 0) + n;
    });
  });
  const state = server as Server & { written?: number };
  return listen(server, 0);
}

/** Writes `total` bytes of `fill` in 1 MiB chunks, waiting for the reader (never buffering ahead). */
export async function writeChunked(
  res: ServerResponse,
  total: number,
  fill: string,
  count: (n: number) => void,
): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024, fill);
  for (let sent = 0; sent < total && !res.destroyed; sent += chunk.length) {
    count(chunk.length);
    if (!res.write(chunk)) {
      await new Promise<void>((done) => {
        const go = () => {
          res.off('drain', go);
          res.off('close', go);
          done();
        };
        res.on('drain', go);
        res.on('close', go);
      });
    }
  }
}
