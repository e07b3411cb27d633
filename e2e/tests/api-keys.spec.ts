import { expect, signIn, test } from '../fixtures/test.js';

// Settings → API Keys: a key made in the browser, copied from its one-time dialog, works for
// a script within its scope until it is revoked in the browser.
test('create, use and revoke an API key', async ({ page, context, request, readyServer }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: readyServer.url,
  });
  await signIn(page);
  await page.goto('/settings?tab=api-keys');
  await expect(page.getByText('No API keys')).toBeVisible();

  await page.getByRole('button', { name: 'Create API key' }).click();
  let dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Name is required');
  await dialog.getByLabel('Name').fill('e2e script');
  await expect(
    dialog.getByText('Everything except managing API keys and the password.'),
  ).toBeVisible();
  await dialog.getByRole('radio', { name: /Operate/ }).check();
  await dialog.getByLabel('Expires').selectOption({ label: '90 days' });
  await dialog.getByRole('button', { name: 'Create' }).click();

  dialog = page.getByRole('dialog', { name: 'API key "e2e script" created' });
  await expect(
    dialog.getByText("Copy this key now. You won't be able to see it again."),
  ).toBeVisible();
  const key = await dialog.getByLabel('New API key').inputValue();
  expect(key).toMatch(/^berth_[A-Za-z0-9_-]{43}$/);
  await dialog.getByRole('button', { name: 'Copy API key' }).click();
  await expect(page.getByText('API key copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // The list shows the key's first characters only, never the key.
  const row = page.getByTestId('api-key-row').filter({ hasText: 'e2e script' });
  await expect(row).toContainText('Operate');
  await expect(row).toContainText(`${key.slice(0, 10)}…`);
  await expect(row).toContainText('Never');
  await expect(page.getByText(key)).toHaveCount(0);

  // A script with the key: its scope reaches the containers list, not the keys themselves.
  const auth = { authorization: `Bearer ${key}` };
  const containers = await request.get(`${readyServer.url}/api/containers`, { headers: auth });
  expect(containers.status()).toBe(200);
  const keys = await request.get(`${readyServer.url}/api/api-keys`, { headers: auth });
  expect(keys.status()).toBe(403);

  // Used once now: the list says when.
  await page.reload();
  await expect(row).not.toContainText('Never', { timeout: 10_000 });

  await row.getByRole('button', { name: 'Revoke e2e script' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(confirm).toContainText('"e2e script"');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('API key "e2e script" revoked')).toBeVisible();
  await expect(page.getByText('No API keys')).toBeVisible();

  const revoked = await request.get(`${readyServer.url}/api/containers`, { headers: auth });
  expect(revoked.status()).toBe(401);
  expect(await revoked.json()).toEqual({ detail: 'Invalid API key' });
});
