import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { THEME_BOOT_SCRIPT } from '@berth/contracts/theme';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app.js';

let t: TestApp | undefined;
afterEach(() => t?.close());

const hash = `'sha256-${createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64')}'`;
const scriptSrc = (csp: unknown) => /script-src [^;]*/.exec(String(csp))?.[0];

describe("the theme's inline script", () => {
  it("is allowed by its hash on the app's pages only; API answers keep script-src 'self'", async () => {
    const webDir = join('/tmp', `berth-web-theme-${process.pid}`);
    mkdirSync(join(webDir, 'assets'), { recursive: true });
    const page = `<!doctype html><script>${THEME_BOOT_SCRIPT}</script><title>Berth</title>`;
    writeFileSync(join(webDir, 'index.html'), page);
    writeFileSync(join(webDir, 'login.html'), page);
    writeFileSync(join(webDir, 'login.html.br'), brotliCompressSync(page));
    writeFileSync(join(webDir, 'assets', 'app.js'), 'console.log(1)');
    t = await buildTestApp({ BERTH_WEB_DIR: webDir });

    for (const [url, headers] of [
      ['/', {}],
      ['/containers?containerId=a', {}],
      ['/login', { 'accept-encoding': 'br' }],
    ] as const) {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, url).toBe(200);
      expect(scriptSrc(res.headers['content-security-policy']), url).toBe(
        `script-src 'self' ${hash}`,
      );
    }
    for (const url of ['/api/health', '/assets/app.js', '/api/nope']) {
      const res = await t.app.inject({ url });
      expect(scriptSrc(res.headers['content-security-policy']), url).toBe("script-src 'self'");
    }
  });
});
