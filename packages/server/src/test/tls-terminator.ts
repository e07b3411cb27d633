import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { listenOnLoopback } from './loopback.js';

export interface TlsTerminator {
  /** https://127.0.0.1:<port>, what an agent is given as BERTH_URL. */
  url: string;
  /** The PEM of the CA that signed the terminator's certificate (BERTH_AGENT_CA_FILE). */
  caFile: string;
  /** The headers of every upgrade request it passed on (what the agents announced). */
  upgrades: IncomingHttpHeaders[];
  close: () => Promise<void>;
}

/**
 * Berth behind TLS, as an operator runs it behind a reverse proxy: a loopback HTTPS server
 * whose certificate (IP:127.0.0.1) is signed by a CA made with openssl for this run, the way
 * scripts/engines.sh makes the rig's. Requests are forwarded to `target` (plain http), and
 * upgrades (the agents' WebSocket) are piped to it byte for byte.
 */
export async function tlsTerminator(target: string): Promise<TlsTerminator> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-tls-'));
  const pem = makeCertificates(dir);
  const { hostname, port } = new URL(target);
  const open = new Set<Duplex>();
  const upgrades: IncomingHttpHeaders[] = [];
  const server = createServer({ key: pem.key, cert: pem.cert }, (req, res) => {
    const forwarded = request(
      { host: hostname, port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  server.on('upgrade', (req, client: Duplex, head: Buffer) => {
    upgrades.push(req.headers);
    const upstream: Socket = connect(Number(port), hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      client.pipe(upstream).pipe(client);
    });
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => undefined);
      s.once('close', () => {
        open.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  const listening = await listenOnLoopback(server);
  return {
    url: `https://127.0.0.1:${listening}`,
    caFile: pem.caFile,
    upgrades,
    close: () =>
      new Promise<void>((done) => {
        for (const s of open) s.destroy();
        server.closeAllConnections();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          done();
        });
      }),
  };
}

function makeCertificates(dir: string): { key: Buffer; cert: Buffer; caFile: string } {
  const openssl = (...args: string[]) =>
    execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=berth-test-ca',
    '-keyout',
    'ca-key.pem',
    '-out',
    'ca.pem',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=berth-test',
    '-keyout',
    'key.pem',
    '-out',
    'server.csr',
  );
  writeFileSync(
    join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca-key.pem',
    '-CAcreateserial',
    '-days',
    '1',
    '-out',
    'cert.pem',
    '-extfile',
    'server.ext',
  );
  return {
    key: readFileSync(join(dir, 'key.pem')),
    cert: readFileSync(join(dir, 'cert.pem')),
    caFile: join(dir, 'ca.pem'),
  };
}
