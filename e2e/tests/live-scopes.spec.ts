import type { WebSocket } from '@playwright/test';
import { apiFor } from '../fixtures/api.js';
import { TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, test } from '../fixtures/test.js';

const containers = new TestContainers();
/** Longer than the list's refetch (5 s) and a few live messages (2 s). */
const HOLD_MS = 6_000;
test.afterEach(() => containers.removeAll());

// An operator limited to staging watches the containers page; the admin widens, then narrows,
// the operator's host tags. The open page follows each change through its live channel, with
// no reload and no reconnect: the prod container appears, then goes.
test("an open page follows a change of its user's host scope without a reload", async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'live-staging', ['staging']));
  await api.post('/hosts', hostPayload('tls', 'live-prod', ['prod']));
  const stagingBox = containers.run('plain', 'live-web');
  const prodBox = containers.run('tls', 'live-db');
  const { user, password } = await api.post<{ user: { id: number }; password: string }>('/users', {
    username: 'lena',
    role: 'operator',
    host_tags: ['staging'],
  });

  await page.goto('/login');
  await page.getByLabel('Username').fill('lena');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Password' });
  await dialog.getByLabel('New Password', { exact: true }).fill('lena-pass-123');
  await dialog.getByLabel('Confirm New Password').fill('lena-pass-123');
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(dialog).toBeHidden();
  const sockets: WebSocket[] = [];
  page.on('websocket', (ws) => sockets.push(ws));
  await page.goto('/containers');
  await expect(page.getByTestId(`container-row-${stagingBox}`)).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => sockets.length).toBe(1);
  await expect(page.getByTestId(`container-row-${prodBox}`)).toHaveCount(0);
  // A mark on the window: a reload would lose it.
  await page.evaluate(() => Object.assign(window, { scopeMark: 'kept' }));

  await api.patch(`/users/${user.id}`, { host_tags: ['staging', 'prod'] });
  await expect(page.getByTestId(`container-row-${prodBox}`)).toBeVisible({ timeout: 10_000 });
  // It stays across live messages and list refetches (5 s): the live state has it too, so a
  // delta never takes it away again.
  await page.waitForTimeout(HOLD_MS);
  await expect(page.getByTestId(`container-row-${prodBox}`)).toBeVisible();
  await expect(page.getByTestId(`container-row-${stagingBox}`)).toBeVisible();

  await api.patch(`/users/${user.id}`, { host_tags: ['staging'] });
  await expect(page.getByTestId(`container-row-${prodBox}`)).toHaveCount(0, { timeout: 10_000 });
  await page.waitForTimeout(HOLD_MS);
  await expect(page.getByTestId(`container-row-${prodBox}`)).toHaveCount(0);
  await expect(page.getByTestId(`container-row-${stagingBox}`)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { scopeMark?: string }).scopeMark)).toBe(
    'kept',
  );
  // The same socket carried both changes: it stayed open, and no other was opened.
  expect(sockets).toHaveLength(1);
  expect(sockets[0]?.isClosed()).toBe(false);
});
