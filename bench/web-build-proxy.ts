// Serves one web build (a copy of packages/web/dist) and passes /api and /ws to a running
// Berth, so that benchmarks can load several builds against the same server and data, in
// turn. Files go out as Berth serves them: brotli or gzip when the build has them and the
// browser accepts them, the index for any other path.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

const passes = (url: string) => url.startsWith('/api/') || url === '/ws' || url.startsWith('/ws/');

function serveFile(
  dist: string,
  req: IncomingMessage,
): { headers: Record<string, string>; body: Buffer } {
  const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/'));
  const file =
    path !== '/' && existsSync(join(dist, path)) ? join(dist, path) : join(dist, 'index.html');
  const accepts = req.headers['accept-encoding'] ?? '';
  const headers: Record<string, string> = {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    // As Berth serves them: hashed assets kept for good, the page asked for each time.
    'cache-control': file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  for (const [encoding, suffix] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (accepts.includes(encoding) && existsSync(file + suffix)) {
      headers['content-encoding'] = encoding;
      return { headers, body: readFileSync(file + suffix) };
    }
  }
  return { headers, body: readFileSync(file) };
}

/** Starts the server on a free loopback port; resolves to its base URL and a way to stop it. */
export async function serveWebBuild(
  dist: string,
  berthPort: number,
): Promise<{ base: string; close: () => void }> {
  const server: Server = createServer((req, res) => {
    if (!passes(req.url ?? '')) {
      const { headers, body } = serveFile(dist, req);
      res.writeHead(200, headers).end(body);
      return;
    }
    const upstream = request(
      {
        host: '127.0.0.1',
        port: berthPort,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  // The live channel: the upgrade request goes through as written, then bytes both ways.
  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    const upstream = connect(berthPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(lines.join('\r\n') + '\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
