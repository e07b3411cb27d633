import { ADMIN, expect, signIn, test } from '../fixtures/test.js';

const NAV = ['Dashboard', 'Hosts', 'Containers', 'Container Logs', 'Events', 'Alerts', 'Settings'];

test.describe('app shell', () => {
  test('the sidebar lists the seven screens and each opens', async ({ page, readyServer: _ }) => {
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(NAV);
    await nav.getByRole('link', { name: 'Hosts' }).click();
    await expect(page.getByRole('heading', { name: 'Hosts' })).toBeVisible();
    await expect(page.getByText('Manage your Docker hosts and connections')).toBeVisible();
    await expect(page.getByText(/^v\d+\.\d+\.\d+$/)).toBeVisible();
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
