import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../fixtures/test.js';

/**
 * The installable app (docs/decisions/035): what Lighthouse's installability audit checked,
 * written as a test in the real browser, and the app opening offline.
 */

interface Manifest {
  name?: string;
  short_name?: string;
  start_url?: string;
  scope?: string;
  display?: string;
  background_color?: string;
  theme_color?: string;
  prefer_related_applications?: boolean;
  icons?: { src: string; sizes: string; type: string; purpose?: string }[];
}

/**
 * Waits until a service worker controls the page: the app registers it 3 s after `load`, and
 * its install fetches the whole shell (slow on a busy machine); the new worker claims the page.
 */
async function waitForWorker(page: Page): Promise<string> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 40_000,
  });
  return page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
}

/** What Lighthouse's installability audit checked, in the page, then the browser's own verdict. */
async function checkInstallable(page: Page, serverUrl: string): Promise<void> {
  await signIn(page);
  const origin = new URL(serverUrl).origin;

  // The manifest: linked from the page, same origin, served as a manifest.
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifestUrl = new URL(manifestHref ?? '', serverUrl);
  expect(manifestUrl.origin).toBe(origin);
  const manifestAnswer = await page.request.get(manifestUrl.href);
  expect(manifestAnswer.status()).toBe(200);
  expect(manifestAnswer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await manifestAnswer.json()) as Manifest;
  expect(manifest.name).toBe('Berth');
  expect(manifest.short_name).toBeTruthy();
  expect(manifest.short_name?.length ?? 99).toBeLessThanOrEqual(12);
  expect(['standalone', 'fullscreen', 'minimal-ui']).toContain(manifest.display);
  expect(manifest.prefer_related_applications ?? false).toBe(false);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  const startUrl = new URL(manifest.start_url ?? '', manifestUrl);
  expect(startUrl.origin).toBe(origin);
  expect(startUrl.href.startsWith(new URL(manifest.scope ?? '/', manifestUrl).href)).toBe(true);

  // Theme colours for dark and light, as the system's scheme picks.
  const themeMedia = await page
    .locator('meta[name="theme-color"]')
    .evaluateAll((metas) => metas.map((m) => m.getAttribute('media')));
  expect(themeMedia.sort()).toEqual([
    '(prefers-color-scheme: dark)',
    '(prefers-color-scheme: light)',
  ]);

  // Icons: fetchable, PNG, decoding to the sizes they claim; 192 and 512, and a maskable 512.
  const icons = manifest.icons ?? [];
  for (const icon of icons) {
    const url = new URL(icon.src, manifestUrl);
    expect(url.origin).toBe(origin);
    const decoded = await page.evaluate(async (href) => {
      const res = await fetch(href);
      const bitmap = await createImageBitmap(await res.blob());
      return { type: res.headers.get('content-type'), w: bitmap.width, h: bitmap.height };
    }, url.href);
    expect(icon.type).toBe('image/png');
    expect(decoded.type).toBe('image/png');
    expect(`${decoded.w}x${decoded.h}`).toBe(icon.sizes);
  }
  const plain = icons.filter((i) => (i.purpose ?? 'any').split(' ').includes('any'));
  expect(plain.map((i) => i.sizes).sort()).toEqual(['192x192', '512x512']);
  expect(icons.filter((i) => i.purpose?.includes('maskable')).map((i) => i.sizes)).toEqual([
    '512x512',
  ]);

  // A service worker from the same origin, at the root scope, controls the page.
  const workerUrl = await waitForWorker(page);
  expect(workerUrl).toBe(`${origin}/sw.js`);
  const scope = await page.evaluate(
    async () => (await navigator.serviceWorker.getRegistration())?.scope,
  );
  expect(scope).toBe(`${origin}/`);

  // The browser's own verdict (what Lighthouse asked Chromium for): no installability errors,
  // and a manifest it parsed without errors.
  const cdp = await page.context().newCDPSession(page);
  const parsed = (await cdp.send('Page.getAppManifest')) as {
    url: string;
    errors: { message: string }[];
  };
  expect(parsed.url).toBe(manifestUrl.href);
  expect(parsed.errors).toEqual([]);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  expect(installabilityErrors).toEqual([]);

  // The worker has a fetch handler: it answers the start page and the shell's scripts.
  await page.reload();
  const fromWorker = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname.startsWith('/assets/'))
      .map((e) => (e as PerformanceResourceTiming).workerStart > 0),
  );
  expect(fromWorker.length).toBeGreaterThan(0);
  expect(fromWorker.every(Boolean)).toBe(true);
  const start = await page.evaluate(async (href) => {
    const res = await fetch(href, { mode: 'same-origin' });
    return { status: res.status, type: res.headers.get('content-type') };
  }, startUrl.href);
  expect(start.status).toBe(200);
  expect(start.type).toMatch(/text\/html/);
}

test.describe('installable app', () => {
  test('passes the installability checks: manifest, icons, a controlling worker with a fetch handler', async ({
    playwright,
    launchOptions,
    readyServer,
  }) => {
    // A browser profile of its own: Chromium never offers to install from an incognito
    // profile (a test's usual context is one), and says so as an installability error.
    const profile = mkdtempSync(join(tmpdir(), 'berth-pwa-profile-'));
    const context = await playwright.chromium.launchPersistentContext(profile, {
      ...launchOptions,
      baseURL: readyServer.url,
      viewport: { width: 390, height: 844 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    try {
      await checkInstallable(page, readyServer.url);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  test('opens offline on "Berth can\'t be reached" with the last time Berth answered, and never from a cached API answer', async ({
    page,
    context,
    readyServer: _,
  }) => {
    await signIn(page);
    await waitForWorker(page);
    const reached = await page.evaluate(() => localStorage.getItem('berth:last-reached'));
    expect(Date.parse(reached ?? '')).toBeGreaterThan(Date.now() - 60_000);
    // Nothing under /api in a cache the app keeps.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      return urls;
    });
    expect(cached.length).toBeGreaterThan(0);
    expect(cached.filter((url) => new URL(url).pathname.startsWith('/api'))).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { name: "Berth can't be reached" })).toBeVisible();
    await expect(page.getByTestId('last-reached')).toContainText('Last reached');
    await expect(page.getByTestId('last-reached').locator('time')).toHaveAttribute(
      'datetime',
      reached ?? '',
    );
    // An API read offline fails: no cache answers it.
    const api = await page.evaluate(() =>
      fetch('/api/v2/auth/me').then(
        (res) => `answered ${res.status}`,
        () => 'failed',
      ),
    );
    expect(api).toBe('failed');
    await page.screenshot({ path: '.artifacts/screenshots/pwa-offline-390x844.png' });

    // Back online, the screen tries again by itself and the app opens where it was.
    await page.setViewportSize({ width: 1440, height: 900 });
    await context.setOffline(false);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  });

  test('opens from the cache when the server is down (no network answer at all)', async ({
    page,
    readyServer,
  }) => {
    await signIn(page);
    await waitForWorker(page);
    await readyServer.stop();
    const response = await page.goto('/containers');
    expect(response?.fromServiceWorker()).toBe(true);
    await expect(page.getByRole('heading', { name: "Berth can't be reached" })).toBeVisible();
    await expect(page.getByTestId('last-reached')).toContainText('Last reached');
  });
});
