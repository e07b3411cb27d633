import { expect, signIn, test } from '../fixtures/test.js';

// Settings → Container Updates: check time, skip compose, policies, registry
// credentials and Check all now.
test('the Container Updates settings tab', async ({ page, readyServer: _server }) => {
  await signIn(page);
  await page.goto('/settings?tab=updates');
  const tab = page.getByTestId('updates-settings');

  const time = tab.getByLabel('Update check time');
  await expect(time).toHaveValue('02:00');
  await time.fill('25:99');
  await time.blur();
  await expect(page.getByText('Invalid time format. Use HH:MM (24-hour format)')).toBeVisible();
  await expect(time).toHaveValue('02:00');
  await time.fill('03:30');
  await time.blur();
  await page.reload();
  await expect(tab.getByLabel('Update check time')).toHaveValue('03:30');
  await expect(tab.getByRole('switch', { name: 'Skip compose containers' })).toBeChecked();

  // Policies: defaults, category toggle, custom patterns with their messages.
  await expect(tab.getByTestId('policy-databases')).toContainText('postgres');
  await tab.getByRole('switch', { name: 'Proxies' }).click();
  await expect(tab.getByRole('switch', { name: 'Proxies' })).not.toBeChecked();
  await page.reload();
  await expect(tab.getByRole('switch', { name: 'Proxies' })).not.toBeChecked();
  await tab.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('Please enter a pattern')).toBeVisible();
  await tab.getByLabel('Custom pattern').fill('my-app');
  await tab.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(tab.getByTestId('custom-patterns')).toContainText('my-app');
  await tab.getByLabel('Custom pattern').fill('my-app');
  await tab.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText("Pattern 'my-app' already exists")).toBeVisible();
  await tab.getByRole('button', { name: 'Remove my-app' }).click();
  await expect(tab.getByTestId('custom-patterns')).not.toContainText('my-app');

  // Registry credentials: add, edit with the URL fixed and a blank password kept, delete.
  await expect(tab.getByText('Credentials are stored encrypted.', { exact: false })).toBeVisible();
  await tab.getByRole('button', { name: 'Add credential' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add registry credential' });
  await dialog.getByLabel('Registry URL').fill('https://ghcr.io');
  await dialog.getByLabel('Username').fill('bob');
  await dialog.getByLabel('Password').fill('s3cret');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(tab.getByTestId('registry-credentials')).toContainText('ghcr.io');
  await expect(tab.getByTestId('registry-credentials')).toContainText('bob');
  await expect(page.getByText('s3cret')).toHaveCount(0);
  await tab.getByRole('button', { name: 'Edit ghcr.io' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit registry credential' });
  await expect(dialog.getByLabel('Registry URL')).toBeDisabled();
  await dialog.getByLabel('Username').fill('alice');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(tab.getByTestId('registry-credentials')).toContainText('alice');
  await tab.getByRole('button', { name: 'Delete ghcr.io' }).click();
  await page
    .getByRole('dialog', { name: 'Delete registry credential' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(tab.getByTestId('registry-credentials')).toContainText('No registry credentials');

  await tab.getByRole('button', { name: 'Check all now' }).click();
  await expect(page.getByText('Update check complete')).toBeVisible();
  await expect(page.getByText('Checked 0/0 containers, 0 update(s) found')).toBeVisible();
});
