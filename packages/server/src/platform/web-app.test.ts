import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app.js';

let t: TestApp | undefined;
afterEach(() => t?.close());

describe('web app and health', () => {
  it('serves the built app and falls back to index.html (login.html for /login) for client routes only', async () => {
    const webDir = join('/tmp', `berth-web-${process.pid}`);
    mkdirSync(join(webDir, 'assets'), { recursive: true });
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Berth</title>');
    writeFileSync(join(webDir, 'login.html'), '<!doctype html><form>Log In</form>');
    writeFileSync(join(webDir, 'login.html.br'), brotliCompressSync('<form>Log In</form>'));
    writeFileSync(join(webDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(webDir, 'assets', 'app.js.br'), brotliCompressSync('console.log(1)'));
    t = await buildTestApp({ BERTH_WEB_DIR: webDir });
    const page = await t.app.inject({ url: '/hosts?hostId=abc' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<title>Berth</title>');
    // /login comes with its form prerendered, compressed as the browser accepts.
    const login = await t.app.inject({ url: '/login?next=1' });
    expect(login.headers['content-type']).toMatch(/text\/html/);
    expect(login.body).toContain('<form>Log In</form>');
    const loginBr = await t.app.inject({ url: '/login', headers: { 'accept-encoding': 'br' } });
    expect(loginBr.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(loginBr.rawPayload).toString()).toBe('<form>Log In</form>');
    const plain = await t.app.inject({ url: '/assets/app.js' });
    expect(plain.body).toBe('console.log(1)');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const br = await t.app.inject({
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    // A chunk of another build (a tab open across an upgrade) is missing, not the app's page:
    // the page's import fails and it reloads, rather than running HTML as a script.
    const stale = await t.app.inject({ url: '/assets/app-0ld.js' });
    expect(stale.statusCode).toBe(404);
    expect(stale.json()).toEqual({ detail: 'Route GET /assets/app-0ld.js not found' });
    const api = await t.app.inject({ url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Route GET /api/unknown not found' });
  });

  it('serves index.html at /login when the build has no prerendered login page', async () => {
    const webDir = join('/tmp', `berth-web-nologin-${process.pid}`);
    mkdirSync(webDir, { recursive: true });
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Berth</title>');
    t = await buildTestApp({ BERTH_WEB_DIR: webDir });
    const login = await t.app.inject({ url: '/login' });
    expect(login.statusCode).toBe(200);
    expect(login.body).toContain('<title>Berth</title>');
  });

  it('serves the service worker from the root, never cached long, and the manifest as JSON', async () => {
    const webDir = join('/tmp', `berth-web-sw-${process.pid}`);
    mkdirSync(webDir, { recursive: true });
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Berth</title>');
    writeFileSync(join(webDir, 'sw.js'), 'const VERSION = 1;');
    writeFileSync(join(webDir, 'sw.js.br'), brotliCompressSync('const VERSION = 1;'));
    writeFileSync(join(webDir, 'manifest.webmanifest'), '{"name":"Berth"}');
    t = await buildTestApp({ BERTH_WEB_DIR: webDir });
    for (const encoding of ['identity', 'br']) {
      const worker = await t.app.inject({
        url: '/sw.js',
        headers: { 'accept-encoding': encoding },
      });
      expect(worker.statusCode).toBe(200);
      expect(worker.headers['content-type']).toMatch(/javascript/);
      expect(worker.headers['cache-control']).toBe('no-cache');
    }
    const manifest = await t.app.inject({ url: '/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toMatch(/application\/manifest\+json/);
    // Without the push handlers' file, the worker's import of it gets no script.
    const push = await t.app.inject({ url: '/sw-push.js' });
    expect(push.headers['content-type']).not.toMatch(/javascript/);
  });

  it('answers /api/health without sign-in with status, version and database state', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
    expect(res.json<{ version: string }>().version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
