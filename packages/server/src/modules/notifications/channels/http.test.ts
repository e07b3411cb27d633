import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKED_PORTS, listenOnBlockedPort, listenOnLoopback } from '../../../test/loopback.js';
import { DeliveryError, type DeliveryContext } from './driver.js';
import { post } from './http.js';

// The HTTP transport every chat and webhook channel sends through, against loopback servers:
// any port (fetch's blocked ones included), the deadline, the redirect policy, the answer's
// cap and the errors an operator reads.

const ctx: DeliveryContext = {
  endpoints: { telegramApiUrl: '', pushoverApiUrl: '', ntfyUrl: '' },
  timeoutMs: 1000,
  product: 'Berth-Test',
};
const servers: Server[] = [];
const received: { url: string; body: string; headers: Record<string, unknown> }[] = [];
let blocked: number;
let plain: number;
let closedPort: number;

function receiver(): Server {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        url: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      });
      const path = req.url ?? '/';
      if (path === '/hang') return;
      if (path === '/moved') {
        res.writeHead(302, { location: '/ok' });
        res.end();
      } else if (path === '/busy') {
        res.writeHead(429, { 'retry-after': '7' });
        res.end('slow down');
      } else if (path === '/long-error') {
        res.writeHead(500);
        res.end('e'.repeat(5000));
      } else if (path === '/endless') {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', pump);
        pump();
      } else res.end('{"ok":true}');
    });
  });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  blocked = await listenOnBlockedPort(receiver());
  plain = await listenOnLoopback(receiver());
  const closed = createServer();
  closedPort = await listenOnLoopback(closed);
  await new Promise<void>((done) => closed.close(() => done()));
});
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

/** The DeliveryError a send fails with. */
async function failure(url: string): Promise<DeliveryError> {
  const err = await post(url, { json: {} }, ctx).then(
    () => new Error('sent'),
    (e: unknown) => e,
  );
  if (!(err instanceof DeliveryError)) throw new Error(`not a DeliveryError: ${String(err)}`);
  return err;
}

describe('the channels’ HTTP transport', { timeout: 20_000 }, () => {
  it('reaches a port on fetch’s blocked-port list', async () => {
    expect(BLOCKED_PORTS).toContain(blocked);
    await post(`http://127.0.0.1:${blocked}/hook`, { json: { text: 'hi' } }, ctx, {
      'x-token': 'abc',
    });
    expect(received.at(-1)).toMatchObject({
      url: '/hook',
      body: '{"text":"hi"}',
      headers: {
        'x-token': 'abc',
        'user-agent': 'Berth-Test',
        'content-type': 'application/json',
        'content-length': '13',
      },
    });
  });

  it('sends form and text bodies with their content types', async () => {
    await post(`http://127.0.0.1:${plain}/f`, { form: { a: '1 2', b: 'é' } }, ctx);
    expect(received.at(-1)).toMatchObject({
      body: 'a=1+2&b=%C3%A9',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await post(`http://127.0.0.1:${plain}/t`, { text: 'plain é' }, ctx);
    expect(received.at(-1)).toMatchObject({
      body: 'plain é',
      headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': '8' },
    });
  });

  it('says refused, no answer in time, and never follows a redirect', async () => {
    expect((await failure(`http://127.0.0.1:${closedPort}/`)).message).toBe(
      'Could not connect: ECONNREFUSED',
    );
    const started = performance.now();
    expect((await failure(`http://127.0.0.1:${plain}/hang`)).message).toBe('No answer within 1 s');
    expect(performance.now() - started).toBeLessThan(2000);
    const before = received.length;
    expect((await failure(`http://127.0.0.1:${plain}/moved`)).message).toBe(
      'Could not connect: unexpected redirect',
    );
    expect(received.length).toBe(before + 1);
    expect((await failure('not a url')).message).toBe('Could not connect: ERR_INVALID_URL');
  });

  it('keeps 300 characters of an error answer, its Retry-After, and reads no endless body', async () => {
    const long = await failure(`http://127.0.0.1:${plain}/long-error`);
    expect(long.message).toBe(`HTTP 500: ${'e'.repeat(300)}`);
    expect(long.options.permanent).toBe(false);
    const busy = await failure(`http://127.0.0.1:${plain}/busy`);
    expect(busy.message).toBe('HTTP 429: slow down');
    expect(busy.options.retryAfterMs).toBe(7000);
    const started = performance.now();
    await post(`http://127.0.0.1:${plain}/endless`, { json: {} }, ctx);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
