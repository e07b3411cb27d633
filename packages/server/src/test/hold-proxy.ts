import { connect, createServer, type Socket } from 'node:net';
import { listenOnLoopback } from './loopback.js';

/**
 * A loopback TCP proxy to `127.0.0.1:targetPort` that can hold one kind of request: after
 * `holdNext(text)`, the first client bytes containing `text` (an HTTP request line) and all
 * that follows on that connection wait until `release()`; `held` tells when it is waiting.
 * `dropAll()` ends every connection (a stream that breaks); new ones are forwarded as usual.
 */
export interface HoldProxy {
  port: number;
  holdNext: (text: string) => Promise<void>;
  release: () => void;
  dropAll: () => void;
  close: () => Promise<void>;
}

export async function startHoldProxy(targetPort: number): Promise<HoldProxy> {
  const sockets = new Set<Socket>();
  let armed: { text: string; held: () => void } | null = null;
  let releases: (() => void)[] = [];
  const server = createServer((client) => {
    const engine = connect(targetPort, '127.0.0.1');
    for (const s of [client, engine]) {
      sockets.add(s);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        engine.destroy();
      });
      s.on('error', () => undefined); // the close that follows is the one report
    }
    engine.pipe(client);
    let waiting: Buffer[] | null = null;
    client.on('data', (chunk: Buffer) => {
      if (waiting === null && armed !== null && chunk.includes(armed.text)) {
        const pending: Buffer[] = [];
        waiting = pending;
        armed.held();
        armed = null;
        releases.push(() => {
          waiting = null;
          for (const c of pending) engine.write(c);
        });
      }
      if (waiting === null) engine.write(chunk);
      else waiting.push(chunk);
    });
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    holdNext: (text) =>
      new Promise<void>((held) => {
        armed = { text, held };
      }),
    release: () => {
      for (const r of releases.splice(0)) r();
    },
    dropAll: () => {
      for (const s of sockets) s.destroy();
    },
    close: async () => {
      releases = [];
      const closed = new Promise<void>((done) => server.close(() => done()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
