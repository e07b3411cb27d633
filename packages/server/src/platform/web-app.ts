import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { serveCompressedAssets } from './asset-cache.js';
import { allowThemeScript } from './security-headers.js';

/**
 * Serves the built web app; client routes (/hosts, /containers?…) fall back to index.html.
 * API, live-channel and asset paths never fall back: they keep their JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const built = existsSync(join(webDir, 'index.html'));
  // /login has its form prerendered (packages/web/prerender.ts); a build without it (or an
  // older one) serves index.html there too.
  const loginPage = existsSync(join(webDir, 'login.html')) ? 'login.html' : 'index.html';
  if (built) {
    serveCompressedAssets(app, join(webDir, 'assets'));
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: 'index.html',
      // The build writes .br and .gz beside each asset (packages/web/precompress.ts).
      preCompressed: true,
      setHeaders: (res, path) => {
        // Hashed file names never change content: cache them for a year.
        if (path.includes(`${sep}assets${sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
        // The service worker and its imports: asked again on every check, so a new build's
        // worker replaces the old one at the next visit (docs/decisions/035).
        else if (SERVICE_WORKER_FILE.test(path)) res.header('cache-control', 'no-cache');
        else if (/\.html(\.br|\.gz)?$/.test(path)) allowThemeScript(res);
      },
    });
  } else {
    app.log.warn({ webDir }, 'web app not built; serving the API only');
  }
  app.setNotFoundHandler((request, reply) => {
    if (built && isClientRoute(request.method, request.url)) {
      const page = pathOf(request.url) === '/login' ? loginPage : 'index.html';
      return reply.type('text/html').sendFile(page);
    }
    const path = pathOf(request.url);
    return reply.code(404).send({ detail: `Route ${request.method} ${path} not found` });
  });
}

/** True for requests the SPA should answer with index.html. */
function isClientRoute(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = pathOf(url);
  return (
    !path.startsWith('/api/') &&
    path !== '/api' &&
    !path.startsWith('/ws') &&
    !path.startsWith('/assets/')
  );
}

/** /sw.js and /sw-push.js, or their compressed copies. */
const SERVICE_WORKER_FILE = /[/\\]sw(-push)?\.js(\.br|\.gz)?$/;

const pathOf = (url: string): string => url.split('?')[0] ?? '';
