import { readFileSync } from 'node:fs';
import type { Container } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

test('the detail dialog shows info, changes settings, follows logs and lists events', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const name = containers.run(
    'plain',
    'detail',
    "trap 'exit 0' TERM; i=0; while :; do i=$((i+1)); echo line-$i; sleep 1; done",
  );
  await signIn(page);
  await page.goto('/containers');
  await page.getByRole('button', { name, exact: true }).click({ timeout: 15_000 });
  const dialog = page.getByRole('dialog', { name: `${name} (edge)` });
  await expect(dialog.getByTestId('detail-state')).toHaveText('Running');
  await expect(dialog.getByText('berth-test/busybox:1.0')).toBeVisible();

  await dialog.getByRole('switch', { name: 'Auto-restart' }).check();
  await expect(page.getByText('Auto-restart enabled')).toBeVisible();
  await dialog.getByLabel('Desired state').selectOption('should_run');
  await expect(page.getByText('Desired state set to Should Run')).toBeVisible();
  await dialog.getByTestId('container-tags').getByRole('button', { name: 'Edit' }).click();
  await dialog.getByLabel('New tag').fill('Web Tier');
  await dialog.getByLabel('New tag').press('Enter');
  await dialog.getByRole('button', { name: 'Save', exact: true }).last().click();
  await expect(page.getByText('Container tags updated successfully')).toBeVisible();
  await expect
    .poll(async () => (await api.get<Container[]>('/containers')).find((c) => c.name === name))
    .toMatchObject({ auto_restart: true, desired_state: 'should_run', tags: ['web-tier'] });

  // Suggestions (debounced) offer tags in use; picking the removed one again changes nothing.
  await dialog.getByTestId('container-tags').getByRole('button', { name: 'Edit' }).click();
  await dialog.getByRole('button', { name: 'Remove web-tier' }).click();
  await dialog.getByLabel('New tag').fill('web');
  await dialog
    .getByRole('list', { name: 'Tag suggestions' })
    .getByRole('button', { name: 'web-tier' })
    .click();
  await dialog.getByRole('button', { name: 'Save', exact: true }).last().click();
  await expect(page.getByText('No changes to save')).toBeVisible();

  await dialog.getByRole('tab', { name: 'Logs' }).click();
  const next = Number(docker('plain', 'logs', '--tail', '1', name).split('-').at(-1)) + 2;
  await expect(dialog.getByTestId('log-lines')).toContainText(`line-${next}`, { timeout: 8000 });

  await dialog.getByRole('tab', { name: 'Events' }).click();
  await expect(dialog.getByTestId('container-events')).toContainText(
    `auto-restart enabled by admin`,
  );
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(
    new RegExp(`^${name}-events-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
  );
  const csv = readFileSync(await file.path(), 'utf8').split('\n');
  expect(csv[0]).toBe(
    'Timestamp,Severity,Category,Type,Title,Message,Container,Old State,New State',
  );
  expect(csv.some((line) => line.includes('auto-restart enabled by admin'))).toBe(true);
  await expect(dialog.getByTestId('events-count')).toHaveText(/^\d+ events · 0 alerts$/);
  await expect(
    dialog.getByTestId('container-events').getByRole('link', { name: 'edge' }).first(),
  ).toHaveAttribute('href', /^\/hosts\?hostId=/);

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  const listed = (await api.get<Container[]>('/containers')).find((c) => c.name === name);
  await page.goto(`/containers?containerId=${listed?.host_id ?? ''}:${listed?.id ?? ''}`);
  await expect(page.getByRole('dialog', { name: `${name} (edge)` })).toBeVisible();
  await expect(page).not.toHaveURL(/containerId/);
});
