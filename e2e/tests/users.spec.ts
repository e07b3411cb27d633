import type { Page } from '@playwright/test';
import type { CreatedUser } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, newUserReachesDashboard as signInAs, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

const restartOf = (page: Page, name: string) =>
  page.getByRole('button', { name: `Restart ${name}`, exact: true });

// Settings → Users: an admin adds an operator in the browser, who signs in with the one-time
// password, changes it, sees only their own settings and may restart a container; a viewer
// may not.
test('an admin adds an operator who can act, and a viewer who can only look', async ({
  page,
  browser,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'users-edge'));
  const name = containers.run('plain', 'users-web');

  await signIn(page);
  await page.goto('/settings?tab=users');
  await page.getByRole('button', { name: 'Add user' }).click();
  const add = page.getByRole('dialog', { name: 'Add user' });
  await add.getByLabel('Username').fill('olivia');
  await add.getByLabel('Email').fill('olivia@example.com');
  await add.getByLabel('Role').selectOption({ label: 'Operator' });
  await add.getByRole('button', { name: 'Add' }).click();
  const shown = page.getByRole('dialog', { name: 'User "olivia" added' });
  const password = await shown.getByLabel('One-time password').inputValue();
  expect(password.length).toBeGreaterThanOrEqual(16);
  await shown.getByRole('button', { name: 'Done' }).click();
  const row = page.getByTestId('user-row').filter({ hasText: 'olivia' });
  await expect(row).toContainText('Operator');
  await expect(row).toContainText('Password change pending');

  const operator = await signInAs(browser, readyServer.url, 'olivia', password);
  await operator.page.goto('/settings');
  await expect(operator.page.getByRole('tab')).toHaveText(['Dashboard', 'API Keys', 'Security']);
  // The audit log is for admins: no sidebar entry leads an operator to a page it cannot read.
  await expect(operator.page.getByRole('link', { name: 'Events' })).toBeVisible();
  await expect(operator.page.getByRole('link', { name: 'Audit Log' })).toHaveCount(0);
  await operator.page.goto('/containers');
  await expect(restartOf(operator.page, name)).toBeEnabled({ timeout: 15_000 });
  await restartOf(operator.page, name).click();
  await expect(operator.page.getByText('Container restarted successfully')).toBeVisible();
  await operator.close();

  const viewer = await api.post<CreatedUser>('/users', { username: 'victor', role: 'viewer' });
  const looker = await signInAs(browser, readyServer.url, 'victor', viewer.password);
  await looker.page.goto('/containers');
  await expect(looker.page.getByTestId(`container-row-${name}`)).toBeVisible({ timeout: 15_000 });
  await expect(restartOf(looker.page, name)).toBeDisabled();
  const refused = await looker.page.request.post(`/api/hosts/x/containers/${name}/restart`, {
    data: {},
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({
    detail: 'Your role "viewer" cannot do this; it needs "operate"',
  });
  // Made an operator while the page is open: the page follows without a reload.
  await looker.page.evaluate(() => Object.assign(window, { berthBeforeRole: true }));
  await api.patch(`/users/${viewer.user.id}`, { role: 'operator' });
  await expect(restartOf(looker.page, name)).toBeEnabled({ timeout: 10_000 });
  expect(await looker.page.evaluate(() => 'berthBeforeRole' in window)).toBe(true);
  await looker.close();

  // Disabled in the browser: the operator's next request is refused.
  await page.reload();
  await row.getByRole('button', { name: 'Actions for olivia' }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  await expect(row).toContainText('Disabled');
});
