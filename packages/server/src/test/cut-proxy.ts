import { createServer, connect, type Socket } from 'node:net';
import { listenOnLoopback } from './loopback.js';

/**
 * A loopback TCP proxy to `127.0.0.1:targetPort` that can cut its path the way a network does:
 * `cut()` stops forwarding without closing anything (bytes both ways are dropped, a close on
 * one side is not passed on, new connections are accepted and hear nothing), `restore()`
 * brings the path back (each connection that lost bytes is reset, as a stale path answers once
 * it returns; new ones forward again) and `close()` ends it all (a stopped engine, a dead host).
 */
export interface CutProxy {
  port: number;
  cut: () => void;
  restore: () => void;
  close: () => Promise<void>;
}

interface Pair {
  a: Socket;
  b: Socket;
  lost: boolean;
}

export async function startCutProxy(targetPort: number): Promise<CutProxy> {
  let cutOff = false;
  const pairs = new Set<Pair>();
  const destroy = (pair: Pair) => {
    pairs.delete(pair);
    pair.a.destroy();
    pair.b.destroy();
  };
  const forward = (pair: Pair, from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (cutOff) {
        pair.lost = true;
        return;
      }
      // Backpressure as pipe() would: a slow reader holds its writer.
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    });
    from.on('end', () => {
      if (cutOff) pair.lost = true;
      else to.end();
    });
    from.on('close', () => {
      if (cutOff) pair.lost = true;
      else destroy(pair);
    });
    from.on('error', () => undefined); // the close that follows is the one report
  };
  const server = createServer((a) => {
    const b = connect(targetPort, '127.0.0.1');
    const pair: Pair = { a, b, lost: cutOff };
    pairs.add(pair);
    forward(pair, a, b);
    forward(pair, b, a);
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    cut: () => {
      cutOff = true;
    },
    restore: () => {
      cutOff = false;
      for (const pair of pairs) if (pair.lost) destroy(pair);
    },
    close: async () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      for (const pair of pairs) destroy(pair);
      await closed;
    },
  };
}
