import { ADMIN, expect, test } from '../fixtures/test.js';

test.describe('first sign-in', () => {
  test('forces the password change, which cannot be closed, then lands on the dashboard', async ({
    page,
    server: _,
  }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log In' }).click();

    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Close' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await page.mouse.click(10, 10);
    await expect(dialog).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toHaveCount(0);

    // The password typed at sign-in is already in the current-password field.
    await expect(dialog.getByLabel('Current Password')).toHaveValue(ADMIN.password);
    await dialog.getByLabel('New Password', { exact: true }).fill('short');
    await dialog.getByLabel('Confirm New Password').fill('short');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(dialog.getByText('New password must be at least 8 characters')).toBeVisible();

    await dialog.getByLabel('New Password', { exact: true }).fill(ADMIN.changed);
    await dialog.getByLabel('Confirm New Password').fill(ADMIN.changed);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('live-status')).toHaveText('Real-time updates');
  });

  test('the new password works and the old one no longer does', async ({
    page,
    readyServer: _,
  }) => {
    await page.goto('/login');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByText('Invalid username or password')).toBeVisible();
  });
});
