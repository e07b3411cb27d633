// A synthetic engine for a resource bench: bench/fake-engine behind for what the monitor asks,
// a front that answers the bench's own resource calls and dresses the container list.
import { createServer, request, type Server } from 'node:http';
import { startFakeEngine } from './fake-engine.ts';

/**
 * A fake engine with `containers` containers on `back`, fronted on `front`: the paths in
 * `served` (without the API version) are answered with their JSON, the rest passed on, and
 * each row of the container list goes through `containerRow` (with its index) so it carries
 * what the resource's "in use by" reads. Both servers are returned, for closing.
 */
export async function startOverlayEngine(opts: {
  front: number;
  back: number;
  label: string;
  containers: number;
  served: Record<string, string>;
  containerRow: (row: { Id: string }, i: number) => object;
}): Promise<Server[]> {
  const backend = await startFakeEngine(opts.back, opts.containers, opts.label);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').replace(/^\/v1\.\d+/, '').split('?')[0] ?? '/';
    const own = opts.served[path];
    if (own !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(own);
      return;
    }
    const upstream = request(
      {
        host: '127.0.0.1',
        port: opts.back,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        if (path !== '/containers/json') {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          // The event stream's headers come alone and must be passed on at once.
          res.flushHeaders();
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const rows = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Id: string }[];
          const body = JSON.stringify(rows.map(opts.containerRow));
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(opts.front, '127.0.0.1', resolve));
  return [backend, server];
}
