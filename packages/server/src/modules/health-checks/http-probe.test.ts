import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BLOCKED_PORTS,
  listenOnBlockedPort,
  listenOnLoopback,
  selfSignedCert,
} from '../../test/loopback.js';
import { probe, type ProbeRequest } from '@berth/agent/http-probe';

const servers: TcpServer[] = [];
const listen = (s: TcpServer) => {
  servers.push(s);
  return listenOnLoopback(s);
};
const req = (url: string, over: Partial<ProbeRequest> = {}): ProbeRequest => ({
  url,
  method: 'GET',
  expectedStatusCodes: '200',
  timeoutMs: 5000,
  followRedirects: true,
  verifySsl: true,
  headers: {},
  ...over,
});

let plain: number;
let tlsPort: number;
let silentPort: number;
let closedPort: number;
let seenHeaders: Record<string, string | string[] | undefined> = {};

beforeAll(async () => {
  plain = await listen(
    createServer((request, res) => {
      seenHeaders = request.headers;
      const path = request.url ?? '/';
      if (path === '/loop') {
        res.writeHead(302, { location: '/loop' });
        return res.end();
      }
      if (path === '/hop') {
        res.writeHead(301, { location: '/ok' });
        return res.end();
      }
      if (path === '/down') {
        res.statusCode = 503;
        return res.end('down');
      }
      if (path === '/huge') {
        // Endless body: the check must not read it all.
        res.statusCode = 200;
        if (request.method === 'HEAD') return res.end();
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let open = true;
        res.on('close', () => (open = false));
        const pump = () => {
          if (open && res.write(chunk)) setImmediate(pump);
        };
        res.on('drain', pump);
        pump();
        return undefined;
      }
      return res.end('ok');
    }),
  );
  // A listener that accepts and never answers, like a port whose traffic is dropped.
  silentPort = await listen(createTcpServer(() => undefined));
  const closed = createTcpServer();
  closedPort = await listen(closed);
  await new Promise<void>((r) => closed.close(() => r()));
  tlsPort = await listen(createTlsServer(selfSignedCert(), (_q, res) => res.end('ok')));
});
afterAll(() => {
  for (const s of servers) s.close();
});

describe('one HTTP check: clear messages for every failure', { timeout: 20_000 }, () => {
  it('passes on an expected status and names the status otherwise', async () => {
    const ok = await probe(req(`http://127.0.0.1:${plain}/`));
    expect(ok).toMatchObject({
      healthy: true,
      statusCode: 200,
      message: 'Received status 200 (matches expected)',
    });
    expect(ok.responseTimeMs).toBeGreaterThanOrEqual(0);
    const down = await probe(
      req(`http://127.0.0.1:${plain}/down`, { expectedStatusCodes: '200-299' }),
    );
    expect(down).toMatchObject({
      healthy: false,
      statusCode: 503,
      message: 'Received status 503 (expected: 200-299)',
    });
    expect(
      (await probe(req(`http://127.0.0.1:${plain}/down`, { expectedStatusCodes: '200,503' })))
        .healthy,
    ).toBe(true);
  });

  it('reaches a port on fetch’s blocked-port list', async () => {
    const server = createServer((_q, res) => {
      res.statusCode = 204;
      res.end();
    });
    servers.push(server);
    const port = await listenOnBlockedPort(server);
    expect(BLOCKED_PORTS).toContain(port);
    expect(
      await probe(req(`http://127.0.0.1:${port}/health`, { expectedStatusCodes: '204' })),
    ).toMatchObject({ healthy: true, statusCode: 204 });
  });

  it('says refused, timed out and too many redirects', async () => {
    expect((await probe(req(`http://127.0.0.1:${closedPort}/`))).message).toBe(
      `Connection refused (127.0.0.1:${closedPort})`,
    );
    const started = Date.now();
    const hung = await probe(req(`http://127.0.0.1:${silentPort}/`, { timeoutMs: 1000 }));
    expect(hung).toMatchObject({
      healthy: false,
      message: 'Timed out after 1s',
      responseTimeMs: null,
    });
    expect(Date.now() - started).toBeLessThan(2500);
    expect((await probe(req(`http://127.0.0.1:${plain}/loop`))).message).toBe(
      'Too many redirects (more than 5)',
    );
  });

  it('follows a redirect only when asked', async () => {
    expect((await probe(req(`http://127.0.0.1:${plain}/hop`))).statusCode).toBe(200);
    const no = await probe(req(`http://127.0.0.1:${plain}/hop`, { followRedirects: false }));
    expect(no).toMatchObject({ healthy: false, statusCode: 301 });
    expect(
      (
        await probe(
          req(`http://127.0.0.1:${plain}/hop`, {
            followRedirects: false,
            expectedStatusCodes: '300-399',
          }),
        )
      ).healthy,
    ).toBe(true);
  });

  it('verifies certificates unless verify_ssl is off', async () => {
    const strict = await probe(req(`https://localhost:${tlsPort}/`));
    expect(strict.healthy).toBe(false);
    expect(strict.message).toMatch(/^TLS error: self-signed certificate/);
    expect((await probe(req(`https://localhost:${tlsPort}/`, { verifySsl: false }))).healthy).toBe(
      true,
    );
  });

  it('reads an endless body only up to its cap, and sends the configured headers', async () => {
    const started = Date.now();
    const huge = await probe(
      req(`http://127.0.0.1:${plain}/huge`, { headers: { 'X-Token': 'abc' }, method: 'HEAD' }),
    );
    expect(huge.healthy).toBe(true);
    const endless = await probe(req(`http://127.0.0.1:${plain}/huge`));
    expect(endless.healthy).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
    await probe(req(`http://127.0.0.1:${plain}/`, { headers: { 'X-Token': 'abc' } }));
    expect(seenHeaders['x-token']).toBe('abc');
  });
});
