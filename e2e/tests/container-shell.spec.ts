import type { CreatedUser } from '@berth/contracts';
import type { Page } from '@playwright/test';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, newUserReachesDashboard, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

/** Opens a container's dialog on its Shell tab and connects with the default shell. */
async function openShell(page: Page, name: string, phone = false) {
  await page.goto('/containers');
  // A phone lists cards, each opened by its own button.
  await page
    .getByRole('button', { name: phone ? `Open ${name}` : name, exact: true })
    .first()
    .click({ timeout: 15_000 });
  const dialog = page.getByRole('dialog', { name: `${name} (edge)` });
  await dialog.getByRole('tab', { name: 'Shell' }).click();
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByTestId('shell-status')).toContainText('Connected: /bin/sh');
  return dialog;
}

test('a shell in the container: typed commands echo, 256 colours show, closing ends it', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const name = containers.run('plain', 'shell');
  await signIn(page);
  const dialog = await openShell(page, name);
  const screen = dialog.getByTestId('shell-terminal');

  // Typed key by key into xterm, as a user does.
  await screen.click();
  await page.keyboard.type('echo "answer-$((6*7))"');
  await page.keyboard.press('Enter');
  await expect(screen.locator('.xterm-rows')).toContainText('answer-42');

  // Colour 196 of the 256 is drawn with its own class.
  await page.keyboard.type(`printf '\\033[38;5;196mRED196\\033[0m\\n'`);
  await page.keyboard.press('Enter');
  await expect(screen.locator('.xterm-fg-196', { hasText: 'RED196' })).toBeVisible();

  // Something long-running, then the dialog closes: the process is gone with the session.
  await page.keyboard.type('sleep 4747');
  await page.keyboard.press('Enter');
  await expect.poll(() => docker('plain', 'top', name)).toContain('sleep 4747');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect
    .poll(() => docker('plain', 'top', name), { timeout: 15_000 })
    .not.toContain('sleep 4747');
});

test('a shell that does not exist says so; a stopped container cannot connect', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const name = containers.run('plain', 'nobash');
  await signIn(page);
  await page.goto('/containers');
  await page.getByRole('button', { name, exact: true }).first().click({ timeout: 15_000 });
  const dialog = page.getByRole('dialog', { name: `${name} (edge)` });
  await dialog.getByRole('tab', { name: 'Shell' }).click();
  await dialog.getByRole('combobox', { name: 'Shell' }).selectOption('/bin/bash');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByTestId('shell-status')).toContainText('/bin/bash');
  await expect(dialog.getByTestId('shell-status')).toContainText(/could not run|not found/);

  docker('plain', 'stop', '-t', '1', name);
  await expect(dialog.getByTestId('shell-status')).toContainText('The container is not running');
  await expect(dialog.getByRole('button', { name: 'Connect' })).toBeDisabled();
});

test('on a phone the shell fits the screen and works', async ({ page, readyServer }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const name = containers.run('plain', 'phone');
  await signIn(page);
  const dialog = await openShell(page, name, true);
  const screen = dialog.getByTestId('shell-terminal');
  const box = await screen.boundingBox();
  expect(box?.width ?? 999).toBeLessThanOrEqual(390);
  await screen.click();
  await page.keyboard.type('stty size');
  await page.keyboard.press('Enter');
  // The terminal's columns follow the narrow screen.
  await expect(screen.locator('.xterm-rows')).toContainText(/\d+ [1-4]\d\b/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
});

test('viewers see no Shell tab', async ({ browser, readyServer }) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const name = containers.run('plain', 'viewer');
  const made = await api.post<CreatedUser>('/users', { username: 'watcher', role: 'viewer' });
  const viewer = await newUserReachesDashboard(browser, readyServer.url, 'watcher', made.password);
  await viewer.page.goto('/containers');
  await viewer.page.getByRole('button', { name, exact: true }).first().click({ timeout: 15_000 });
  const dialog = viewer.page.getByRole('dialog', { name: `${name} (edge)` });
  await expect(dialog.getByRole('tab', { name: 'Info' })).toBeVisible();
  await expect(dialog.getByRole('tab', { name: 'Shell' })).toHaveCount(0);
  await viewer.close();
});

test('operators get the Shell tab once an admin allows it in Settings → System', async ({
  page,
  browser,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const name = containers.run('plain', 'operator');
  const made = await api.post<CreatedUser>('/users', { username: 'opsy', role: 'operator' });
  const operator = await newUserReachesDashboard(browser, readyServer.url, 'opsy', made.password);
  const dialogOf = async () => {
    await operator.page.goto('/containers');
    await operator.page
      .getByRole('button', { name, exact: true })
      .first()
      .click({ timeout: 15_000 });
    return operator.page.getByRole('dialog', { name: `${name} (edge)` });
  };
  await expect((await dialogOf()).getByRole('tab', { name: 'Info' })).toBeVisible();
  await expect((await dialogOf()).getByRole('tab', { name: 'Shell' })).toHaveCount(0);

  await signIn(page);
  await page.goto('/settings?tab=system');
  const allow = page.getByRole('switch', { name: 'Operators may open container shells' });
  await allow.click();
  await expect(allow).toBeChecked();
  await expect(page.getByLabel('Shell idle timeout')).toHaveValue('15');

  const dialog = await dialogOf();
  await dialog.getByRole('tab', { name: 'Shell' }).click();
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByTestId('shell-status')).toContainText('Connected: /bin/sh');
  await operator.close();
});

test('with recording on, what was typed is read back under Audit Log → Shell recordings', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  await api.put('/settings', { exec_recording: true });
  const name = containers.run('plain', 'recorded');
  await signIn(page);
  const dialog = await openShell(page, name);
  const screen = dialog.getByTestId('shell-terminal');
  await screen.click();
  await page.keyboard.type('echo recorded-here');
  await page.keyboard.press('Enter');
  await expect(screen.locator('.xterm-rows')).toContainText('recorded-here');
  await page.keyboard.type('exit');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('shell-status')).not.toContainText('Connected');
  await page.keyboard.press('Escape');

  await page.goto('/audit');
  await page.getByRole('tab', { name: 'Shell recordings' }).click();
  await expect(page).toHaveURL(/view=recordings/);
  const row = page.getByTestId('shell-recordings').locator('tbody tr').filter({ hasText: name });
  await expect(row).toContainText('admin');
  await expect(row).toContainText('/bin/sh');
  await row.click();
  const recording = page.getByRole('dialog', { name: 'Shell recording' });
  await expect(recording.getByTestId('recording-input')).toHaveText('echo recorded-here⏎\nexit⏎\n');
  await page.screenshot({
    path: new URL('../.artifacts/shell-recording.png', import.meta.url).pathname,
  });
  await api.put('/settings', { exec_recording: false });
});
