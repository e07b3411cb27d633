import type { Browser } from '@playwright/test';
import type { Container, CreatedUser } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

/**
 * A browser context of its own (its own cookies) signed in as a user; with `oneTime`, the
 * first sign-in's password change is made too.
 */
async function userBrowser(browser: Browser, url: string, username: string, oneTime?: string) {
  const context = await browser.newContext({ baseURL: url });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(oneTime ?? PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  if (oneTime !== undefined) {
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByLabel('New Password', { exact: true }).fill(PASSWORD);
    await dialog.getByLabel('Confirm New Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(dialog).toBeHidden();
  }
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  return { page, close: () => context.close() };
}

const PASSWORD = 'sessions-pass-123';

// Settings → Security: signed in from two browsers, the first lists both sessions (this one
// marked), signs the other out, and the other browser is sent to the login page at once.
test('a user signs another of their sessions out, and that browser goes to the login page', async ({
  browser,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  const made = await api.post<CreatedUser>('/users', { username: 'sol', role: 'operator' });
  const first = await userBrowser(browser, readyServer.url, 'sol', made.password);
  const second = await userBrowser(browser, readyServer.url, 'sol');

  await first.page.goto('/settings?tab=security');
  const rows = first.page.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  const here = rows.filter({ hasText: 'This device' });
  await expect(here).toHaveCount(1);
  await expect(here).toContainText('Chrome on Linux');
  await expect(here).toContainText('Now');
  const other = rows.filter({ hasNotText: 'This device' });
  await expect(other).toContainText('Chrome on Linux');
  await expect(other).toContainText('127.0.0.1');

  await other.getByRole('button', { name: /^Sign out Chrome on Linux/ }).click();
  await expect(first.page.getByText('Signed out Chrome on Linux')).toBeVisible();
  await expect(rows).toHaveCount(1);
  // The ended session's socket closes, and its browser is sent to sign in again.
  await expect(second.page).toHaveURL(/\/login$/, { timeout: 10_000 });
  await expect(second.page.getByRole('button', { name: 'Log In' })).toBeVisible();
  // The first browser is still signed in.
  await first.page.reload();
  await expect(rows).toHaveCount(1);

  // Sign out everywhere (with a confirm) ends every other session, and keeps this one.
  const third = await userBrowser(browser, readyServer.url, 'sol');
  await first.page.reload();
  await expect(rows).toHaveCount(2);
  await first.page.getByRole('button', { name: 'Sign out everywhere' }).click();
  const confirm = first.page.getByRole('dialog', { name: 'Sign out everywhere' });
  await expect(confirm).toContainText('This device stays signed in');
  await confirm.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(rows).toHaveCount(1);
  await expect(third.page).toHaveURL(/\/login$/, { timeout: 10_000 });
  await third.close();
  await second.close();
  await first.close();
});

// Settings → Users: an admin sees every user's sessions and ends one; Settings → System:
// viewers see container logs only once an admin allows it.
test('an admin ends a user’s session, and decides whether viewers read logs', async ({
  page,
  browser,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'sessions-edge'));
  const name = containers.run('plain', 'sessions-web');
  // Listed before the viewer signs in, so the viewer's first list holds it.
  await expect
    .poll(async () => (await api.get<Container[]>('/containers')).some((c) => c.name === name), {
      timeout: 15_000,
    })
    .toBe(true);
  const created = await api.post<CreatedUser>('/users', { username: 'vale', role: 'viewer' });

  const looker = await userBrowser(browser, readyServer.url, 'vale', created.password);
  const viewer = looker.page;

  // Off by default: no logs page, no Logs button, and the API refuses with its reason.
  const nav = viewer.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Containers' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Container Logs' })).toHaveCount(0);
  await viewer.goto('/containers');
  await expect(viewer.getByTestId(`container-row-${name}`)).toBeVisible({ timeout: 15_000 });
  await expect(viewer.getByRole('button', { name: `Logs of ${name}` })).toHaveCount(0);
  const refused = await viewer.request.get(`/api/hosts/x/containers/${name}/logs`);
  expect(refused.status()).toBe(403);
  expect((await refused.json()) as unknown).toEqual({
    detail: 'Viewers cannot read container logs: an admin has not allowed it (Settings → System)',
  });

  await signIn(page);
  await page.goto('/settings?tab=system');
  const toggle = page.getByRole('switch', { name: 'Viewers may read container logs' });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await viewer.reload();
  await expect(viewer.getByRole('button', { name: `Logs of ${name}` })).toBeVisible({
    timeout: 15_000,
  });
  await expect(nav.getByRole('link', { name: 'Container Logs' })).toBeVisible();

  // Settings → Users: the viewer's session among everyone's; ending it sends them to sign in.
  await page.goto('/settings?tab=users');
  const vale = page.getByTestId('all-session-row').filter({ hasText: 'vale' });
  await expect(vale).toHaveCount(1);
  await expect(vale).toContainText('Chrome on Linux');
  await vale.getByRole('button', { name: /^End vale's session/ }).click();
  await page
    .getByRole('dialog', { name: 'End session' })
    .getByRole('button', { name: 'End session' })
    .click();
  await expect(vale).toHaveCount(0);
  await expect(viewer).toHaveURL(/\/login$/, { timeout: 10_000 });
  await looker.close();
});
