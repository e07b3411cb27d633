import { ADMIN, expect, signIn, test } from '../fixtures/test.js';

const NAV = [
  'Dashboard',
  'Hosts',
  'Containers',
  'Projects',
  'Images',
  'Volumes',
  'Networks',
  'Container Logs',
  'Events',
  'Audit Log',
  'Alerts',
  'Settings',
];

test.describe('app shell', () => {
  test('the sidebar lists the screens and each opens', async ({ page, readyServer: _ }) => {
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(NAV);
    await nav.getByRole('link', { name: 'Hosts' }).click();
    await expect(page.getByRole('heading', { name: 'Hosts' })).toBeVisible();
    await expect(page.getByText('Manage your Docker hosts and connections')).toBeVisible();
    await expect(page.getByText(/^v\d+\.\d+\.\d+$/)).toBeVisible();
  });

  test("a signed-in load fetches the app and the screen's chunks at once; /login does not", async ({
    page,
    readyServer,
  }) => {
    const html = async (path: string) =>
      (await page.request.get(`${readyServer.url}${path}`)).text();
    const preloaded = (page: string, chunk: string) =>
      new RegExp(`<link rel="modulepreload"[^>]*href="/assets/${chunk}-[\\w-]+\\.js"`).test(page);
    const login = await html('/login');
    expect(preloaded(login, 'vendor')).toBe(false);
    const app = await html('/containers');
    for (const chunk of ['start', 'vendor', 'common', 'app-shell'])
      expect(preloaded(app, chunk)).toBe(true);

    const requested: string[] = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await signIn(page);
    requested.length = 0;
    await page.goto(`${readyServer.url}/containers`);
    await expect(page.getByRole('heading', { name: 'Containers' })).toBeVisible();
    // The entry added the screen's own chunk (the router's import adds only what it imports).
    const links = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map(
        (l) => new URL(l.href).pathname,
      ),
    );
    expect(links.filter((p) => /\/assets\/containers-[\w-]{8}\.js$/.test(p))).toHaveLength(1);
    expect(links.some((p) => p.includes('/assets/dashboard-'))).toBe(false);
    // Preloaded, then imported: the file is asked for once.
    expect(requested.filter((p) => /\/assets\/containers-[\w-]{8}\.js$/.test(p))).toHaveLength(1);
  });

  test('the collapse choice is saved and survives a reload', async ({ page, readyServer: _ }) => {
    await signIn(page);
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/v2/user/preferences') && r.request().method() === 'PATCH',
    );
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
  });

  test('the sidebar collapses by itself below 1024 px', async ({ page, readyServer: _ }) => {
    await signIn(page);
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false');
    await page.setViewportSize({ width: 1000, height: 800 });
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false');
  });

  test('the status reads Reconnecting... while the server is down and Real-time updates after', async ({
    page,
    readyServer,
  }) => {
    await signIn(page);
    const status = page.getByTestId('live-status');
    await expect(status).toHaveText('Real-time updates');
    await readyServer.stop();
    await expect(status).toHaveText('Reconnecting...');
    await readyServer.start();
    await expect(status).toHaveText('Real-time updates', { timeout: 20_000 });
  });

  test('account settings change the display name shown in the menu', async ({
    page,
    readyServer: _,
  }) => {
    await signIn(page);
    await page.getByRole('button', { name: ADMIN.username }).click();
    await page.getByRole('menuitem', { name: 'Account Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Account Settings' });
    await dialog.getByLabel('Display Name').fill('Ops Team');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('sidebar').getByText('Ops Team')).toBeVisible();
  });
});
