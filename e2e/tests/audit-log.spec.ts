import { readFileSync } from 'node:fs';
import { apiFor } from '../fixtures/api.js';
import { expect, signIn, test } from '../fixtures/test.js';

// The Audit Log: a change made in the browser and a refused sign-in are listed with who, what,
// from where and how they ended; the filters narrow the list and the CSV holds what they show.
test('a change made in the browser is in the audit log, filtered and exported', async ({
  page,
  request,
  readyServer,
}) => {
  const refused = await request.post(`${readyServer.url}/api/v2/auth/login`, {
    data: { username: 'mallory', password: 'guess-1' },
  });
  expect(refused.status()).toBe(401);
  await signIn(page);

  await page.goto('/settings?tab=system');
  const retention = page.getByLabel('Audit log retention', { exact: true });
  await retention.fill('200');
  await retention.press('Tab');
  await expect(retention).toHaveValue('200');

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Audit Log' })
    .click();
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  const rows = page.getByTestId('audit-row');
  const change = rows.filter({ hasText: 'settings.update' });
  await expect(change).toHaveCount(1);
  await expect(change).toContainText('admin');
  await expect(change).toContainText('127.0.0.1');
  await expect(change).toContainText('ok 200');
  await expect(rows.filter({ hasText: 'auth.login' }).filter({ hasText: 'mallory' })).toContainText(
    'error 401 · Invalid username or password',
  );

  await page.getByLabel('Result').selectOption({ label: 'Failed' });
  await expect(page).toHaveURL(/result=error/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('mallory');

  await page.getByLabel('Result').selectOption({ label: 'Any result' });
  const action = page.getByLabel('Action');
  await action.fill('settings.');
  await action.press('Enter');
  await expect(page).toHaveURL(/action=settings\./);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('settings.update');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^berth-audit-.+\.csv$/);
  const lines = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\r\n');
  expect(lines[0]).toMatch(/^timestamp,actor,api_key,source,action,/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(',admin,,api,settings.update,');

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).not.toHaveURL(/action=/);
  // The fixture's sign-in before the password change, mallory's, and this page's.
  await expect(rows.filter({ hasText: 'auth.login' })).toHaveCount(3);
  await page.screenshot({
    path: new URL('../.artifacts/audit/audit-log.png', import.meta.url).pathname,
  });
});

// Who made a change shows in the host's timeline too: "by <user>" beside the event.
test('the host timeline says who added the host', async ({ page, readyServer }) => {
  const api = await apiFor(readyServer.url);
  const host = await api.post<{ id: string }>('/hosts', {
    name: 'audit-edge',
    url: 'tcp://127.0.0.1:9',
  });
  await signIn(page);
  await page.goto(`/hosts?hostId=${host.id}`);
  const modal = page.getByTestId('host-modal');
  await modal.getByRole('tab', { name: 'Events' }).click();
  const added = modal
    .getByTestId('host-events-log')
    .getByRole('listitem')
    .filter({ hasText: 'Host audit-edge added' });
  await expect(added.getByTestId('event-by')).toHaveText('by admin');
});
