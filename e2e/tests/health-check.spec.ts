import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

/**
 * Opens the containers page showing only this test's containers: the engine may hold
 * hundreds of others (a benchmark's), and the table draws only the rows in view.
 */
async function openOwnContainers(page: Page, url: string) {
  await page.goto(url);
  await page.getByLabel('Search containers').fill(containers.prefix);
}

test('Health Check tab: disabled default, save, healthy banner and stats, Check Now passes and fails, bounds refused', async ({
  page,
  readyServer,
}) => {
  test.setTimeout(150_000);
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const web = containers.run('plain', 'web', 'httpd -f -p 8080 -h /www', 'berth-test/httpd:1.0');
  await signIn(page);
  await openOwnContainers(page, '/containers');
  await page.getByRole('button', { name: web, exact: true }).click({ timeout: 15_000 });
  const dialog = page.getByRole('dialog', { name: `${web} (edge)` });
  await dialog.getByRole('tab', { name: 'Health Check' }).click();

  const banner = dialog.getByTestId('health-banner');
  await expect(banner).toContainText('Unknown');
  await expect(banner).toContainText('Health check is not enabled');
  const checkNow = dialog.getByRole('button', { name: 'Check Now' });
  await expect(checkNow).toBeDisabled();
  await expect(dialog.getByText('About HTTP Health Checks')).toBeVisible();
  await expect(dialog.getByLabel('Timeout (seconds)')).toHaveValue('10');
  await expect(dialog.getByLabel('Check interval (seconds)')).toHaveValue('60');

  // Enabled without a URL: refused in the browser.
  await dialog.getByRole('switch', { name: 'Enable health check' }).check();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Please enter a URL to check').first()).toBeVisible();

  await dialog.getByLabel('URL').fill('http://{container_ip}:8080/health');
  await dialog.getByLabel('Check interval (seconds)').fill('10');
  await dialog.getByLabel('Failure threshold').fill('1');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Health check configuration saved')).toBeVisible();
  await expect(checkNow).toBeEnabled();
  await expect(banner).toContainText('Healthy', { timeout: 15_000 });
  const stats = dialog.getByTestId('health-stats');
  await expect(stats).toContainText('Last Checked');
  await expect(stats).toContainText('Response Time');
  await expect(stats).toContainText('Consecutive Failures');
  await expect(dialog.getByTestId('health-address')).toContainText(
    /last called http:\/\/\d+\.\d+\.\d+\.\d+:8080\/health/,
  );

  await checkNow.click();
  await expect(page.getByText('Health check test passed!')).toBeVisible();
  await expect(page.getByText(/Received status 200 \(matches expected\) \(\d+ms\)/)).toBeVisible();

  // Check Now tries the form's values without saving them.
  await dialog.getByLabel('URL').fill('http://{container_ip}:8080/missing');
  await checkNow.click();
  await expect(page.getByText('Health check test failed')).toBeVisible();
  await expect(page.getByText(/Received status 404 \(expected: 200\)/).first()).toBeVisible();
  const listed = (
    await api.get<{ id: string; host_id: string; name: string }[]>('/containers')
  ).find((c) => c.name === web);
  const saved = await api.get<{ url: string }>(
    `/containers/${listed?.host_id}/${listed?.id}/http-health-check`,
  );
  expect(saved.url).toBe('http://{container_ip}:8080/health');

  // Out of bounds: refused with the field's message.
  await dialog.getByLabel('URL').fill('http://{container_ip}:8080/health');
  await dialog.getByLabel('Timeout (seconds)').fill('3');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Timeout must be between 5 and 60 seconds');
  await expect(page.getByText('Failed to save configuration')).toBeVisible();
});

test('the Policy column shows the health icon with its state, and policy_health_check filters by it', async ({
  page,
  readyServer,
}) => {
  test.setTimeout(150_000);
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const web = containers.run('plain', 'web', 'httpd -f -p 8080 -h /www', 'berth-test/httpd:1.0');
  // A second container without a check (an httpd too: both come up the same way).
  const idle = containers.run('plain', 'idle', 'httpd -f -p 8080 -h /www', 'berth-test/httpd:1.0');
  await expect
    .poll(
      async () =>
        (await api.get<{ name: string }[]>('/containers'))
          .map((x) => x.name)
          .filter((n) => n === idle || n === web)
          .sort(),
      { timeout: 60_000 },
    )
    .toEqual([idle, web].sort());
  const list = await api.get<{ id: string; host_id: string; name: string }[]>('/containers');
  const c = list.find((x) => x.name === web);
  if (c === undefined) throw new Error('web not listed');
  await api.put(`/containers/${c.host_id}/${c.id}/http-health-check`, {
    enabled: true,
    url: 'http://{container_ip}:8080/health',
    check_interval_seconds: 10,
    failure_threshold: 1,
  });

  await signIn(page);
  await openOwnContainers(page, `/containers?host=${c.host_id}`);
  const webRow = page.getByTestId(`container-row-${web}`);
  const icon = webRow.getByTestId('health-icon');
  // The first check runs up to one interval (10 s) after it is enabled; its result reaches
  // the table live, or at the socket's connect if it came before: two intervals at most.
  await expect(icon).toHaveAttribute('title', 'Health check healthy', { timeout: 20_000 });
  await expect(page.getByTestId(`container-row-${idle}`).getByTestId('health-icon')).toHaveCount(0);

  // The file goes: within an interval the icon says unhealthy with the failure count (live).
  docker('plain', 'exec', web, 'rm', '/www/health');
  await expect(icon).toHaveAttribute(
    'title',
    /Health check unhealthy \(\d+ consecutive failures\)/,
    {
      timeout: 20_000,
    },
  );

  await openOwnContainers(page, `/containers?host=${c.host_id}&policy_health_check=enabled`);
  await expect(page.getByTestId(`container-row-${web}`)).toBeVisible();
  await expect(page.getByTestId(`container-row-${idle}`)).toHaveCount(0);
  await openOwnContainers(page, `/containers?host=${c.host_id}&policy_health_check=disabled`);
  await expect(page.getByTestId(`container-row-${idle}`)).toBeVisible();
  await expect(page.getByTestId(`container-row-${web}`)).toHaveCount(0);

  // The Policy menu sets the same filter.
  await openOwnContainers(page, `/containers?host=${c.host_id}`);
  await page.getByRole('button', { name: /^Policy/ }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Health check enabled' }).click();
  await expect(page).toHaveURL(/policy_health_check=enabled/);
  await expect(page.getByTestId(`container-row-${idle}`)).toHaveCount(0);
  await expect(page.getByTestId(`container-row-${web}`)).toBeVisible();
});
