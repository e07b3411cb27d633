import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Loopback servers for tests and benchmarks that stand in for services Berth calls
// (notification services, health-check targets). Node built-ins only: bench/ imports this
// file as TypeScript straight from the source tree.

/** What `listenOnLoopback` needs of a server: node:net, node:http and node:https ones fit. */
interface Listener {
  listen(port: number, host: string, done: () => void): unknown;
  address(): AddressInfo | string | null;
}

/** Starts `server` on a free port of 127.0.0.1 and answers the port. */
export async function listenOnLoopback(server: Listener): Promise<number> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

/** Ports fetch refuses ("bad port") and Node's client reaches, in the order tried. */
export const BLOCKED_PORTS = [10080, 6000, 6665, 6666, 6667, 6668, 6669];

/** Starts `server` on the first free port of BLOCKED_PORTS on 127.0.0.1 and answers it. */
export async function listenOnBlockedPort(server: Server): Promise<number> {
  for (const port of BLOCKED_PORTS) {
    const listening = await new Promise<boolean>((done) => {
      const taken = () => done(false);
      server.once('error', taken);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', taken);
        done(true);
      });
    });
    if (listening) return port;
  }
  throw new Error(`No free port among ${BLOCKED_PORTS.join(', ')}`);
}

/** A key and a self-signed certificate for CN=localhost, made by openssl for this run. */
export function selfSignedCert(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'berth-cert-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A loopback HTTP server that reads each request's body whole, then lets `answer` respond
 * (or not: a receiver may hang on purpose). `keepAliveTimeoutMs` is Node's own unless told.
 */
export async function loopbackHttpReceiver(
  answer: (req: IncomingMessage, body: string, res: ServerResponse) => void,
  options: { keepAliveTimeoutMs?: number; blockedPort?: boolean } = {},
) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  if (options.keepAliveTimeoutMs !== undefined)
    server.keepAliveTimeout = options.keepAliveTimeoutMs;
  const port = await (options.blockedPort === true
    ? listenOnBlockedPort(server)
    : listenOnLoopback(server));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
