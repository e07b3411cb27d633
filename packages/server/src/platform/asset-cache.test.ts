import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app.js';

let t: TestApp | undefined;
afterEach(() => t?.close());

const SCRIPT = 'console.log("berth")';
const STYLE = 'body{color:red}';

async function appWithBuild(): Promise<TestApp> {
  const webDir = join('/tmp', `berth-assets-${process.pid}`);
  rmSync(webDir, { recursive: true, force: true });
  const assets = join(webDir, 'assets');
  mkdirSync(assets, { recursive: true });
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Berth</title>');
  writeFileSync(join(assets, 'app-1.js'), SCRIPT);
  writeFileSync(join(assets, 'app-1.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(assets, 'app-1.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(assets, 'style-1.css'), STYLE);
  writeFileSync(join(assets, 'style-1.css.gz'), gzipSync(STYLE));
  const app = await buildTestApp({ BERTH_WEB_DIR: webDir });
  // Read at start: copies rewritten afterwards (a build over a running server) are not served.
  writeFileSync(join(assets, 'app-1.js.br'), brotliCompressSync('rewritten'));
  writeFileSync(join(assets, 'app-1.js.gz'), gzipSync('rewritten'));
  return app;
}

const get = (url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') => {
  if (t === undefined) throw new Error('no app');
  return t.app.inject({
    method,
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });
};

describe('compressed assets from memory', () => {
  it('answers with the copy read at start, in the encoding the browser prefers', async () => {
    t = await appWithBuild();
    const br = await get('/assets/app-1.js', 'gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers).toMatchObject({
      'content-encoding': 'br',
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
    });
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    // Helmet's headers still come with it.
    expect(br.headers['x-content-type-options']).toBe('nosniff');

    const gzip = await get('/assets/app-1.js', 'br;q=0, gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const head = await get('/assets/app-1.js', 'br', 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body).toBe('');
  });

  it('offers only the copies the build wrote', async () => {
    t = await appWithBuild();
    const css = await get('/assets/style-1.css', 'br, gzip');
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(gunzipSync(css.rawPayload).toString()).toBe(STYLE);
  });

  it('leaves other requests to the static files: no accepted encoding, other files, 404s', async () => {
    t = await appWithBuild();
    const plain = await get('/assets/app-1.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    const identity = await get('/assets/app-1.js', 'identity');
    expect(identity.body).toBe(SCRIPT);
    const missing = await get('/assets/app-0ld.js', 'br');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Route GET /assets/app-0ld.js not found' });
    const escape = await get('/assets/..%2Findex.html', 'br');
    expect(escape.statusCode).toBe(404);
  });
});
