import type { Container, Host, Preferences } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { keyboardDrag } from '../fixtures/drag.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

test.describe('containers page', () => {
  test('filters live in the query string, search counts, and columns stay as arranged', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'edge'));
    const up = containers.run('plain', 'up');
    const down = containers.run('plain', 'down');
    docker('plain', 'stop', down);
    await signIn(page);
    await page.goto('/containers');
    const rows = page.locator('tbody tr');
    await expect(page.getByTestId(`container-row-${up}`)).toBeVisible({ timeout: 15_000 });

    await page.getByRole('button', { name: 'State' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Running' }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/state=running/);
    await expect(page.getByTestId(`container-row-${down}`)).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId(`container-row-${up}`)).toBeVisible();
    await expect(page.getByTestId(`container-row-${down}`)).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(page).not.toHaveURL(/state=/);

    await page.goto('/containers?state=stopped,bogus');
    await expect(page.getByTestId(`container-row-${down}`)).toContainText('Exited');
    await expect(page.getByTestId(`container-row-${up}`)).toHaveCount(0);
    await page.goto('/containers');

    await page.getByLabel('Search containers').fill(up);
    await expect(page.getByTestId('container-count')).toHaveText('1 container(s)');
    await expect(rows).toHaveCount(1);
    await page.getByLabel('Search containers').fill('');

    // Hide Ports, move Host to the front; both survive a reload.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Ports', exact: true }).uncheck();
    await expect(page.getByTestId('columns-visible')).toHaveText('10 of 11 visible');
    await keyboardDrag(page, page.getByRole('button', { name: 'Reorder Host' }), 'ArrowUp', 12);
    await page.keyboard.press('Escape');
    await expect
      .poll(async () => {
        const prefs = await api.get<Preferences>('/v2/user/preferences');
        return [
          prefs.container_table_column_order[0],
          prefs.container_table_column_visibility.ports,
        ];
      })
      .toEqual(['host', false]);
    await page.reload();
    const headers = page.locator('thead th');
    await expect(headers.nth(1)).toHaveAttribute('data-column', 'host');
    await expect(page.locator('thead th[data-column="ports"]')).toHaveCount(0);
  });

  test('a bulk restart on two hosts counts to completion, and bulk tags apply', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post<Host>('/hosts', hostPayload('plain', 'edge'));
    await api.post<Host>('/hosts', hostPayload('tls', 'vault'));
    const names = [
      containers.run('plain', 'a'),
      containers.run('plain', 'b'),
      containers.run('tls', 'c'),
    ];
    await signIn(page);
    await page.goto('/containers');
    const prefix = names[0]?.split('-').slice(0, 2).join('-') ?? '';
    await page.getByLabel('Search containers').fill(prefix);
    await expect(page.getByTestId('container-count')).toHaveText('3 container(s)', {
      timeout: 15_000,
    });

    await page.getByLabel('Select all containers').check();
    const bar = page.getByTestId('bulk-bar');
    await expect(bar).toContainText('3 selected');
    await bar.getByRole('button', { name: 'Restart' }).click();
    const confirm = page.getByRole('dialog', { name: 'Restart 3 containers?' });
    for (const name of names) await expect(confirm.getByTestId('confirm-list')).toContainText(name);
    await confirm.getByRole('button', { name: 'Restart' }).click();
    await expect(page.getByText('Batch job started')).toBeVisible();
    const panel = page.getByRole('complementary', { name: 'Batch job' });
    await expect(panel.getByTestId('batch-Success')).toHaveText('3', { timeout: 30_000 });
    await expect(panel.getByTestId('batch-status')).toHaveText(/^Status: completed · finished \d/);
    await expect(panel).toHaveCount(0, { timeout: 6000 }); // closes 3 s after completion

    await page.getByLabel('Select all containers').check();
    await bar.getByRole('button', { name: 'Add Tags' }).click();
    await expect(bar.getByText('Please enter at least one tag')).toBeVisible();
    await bar.getByLabel('Tags for selected containers').fill('blue, web tier');
    await bar.getByRole('button', { name: 'Add Tags' }).click();
    await expect(bar.getByRole('alert')).toHaveText(
      'Invalid characters (alphanumeric, -, _, :, . only)',
    );
    await bar.getByLabel('Tags for selected containers').fill('compose:shop');
    await bar.getByRole('button', { name: 'Add Tags' }).click();
    await expect(bar.getByRole('alert')).toHaveText(
      'Tags starting with compose: or swarm: are derived and cannot be edited',
    );
    await expect(panel).toHaveCount(0); // nothing was sent
    await bar.getByLabel('Tags for selected containers').fill('Blue, edge-ready');
    await bar.getByRole('button', { name: 'Add Tags' }).click();
    await expect(panel.getByTestId('batch-Success')).toHaveText('3', { timeout: 30_000 });
    await expect
      .poll(async () =>
        (await api.get<Container[]>('/containers'))
          .filter((c) => names.includes(c.name))
          .every((c) => c.tags.includes('blue') && c.tags.includes('edge-ready')),
      )
      .toBe(true);
    await expect(page.getByTestId(`container-row-${names[2] ?? ''}`)).toContainText('edge-ready');
    await expect(panel).toHaveCount(0, { timeout: 6000 });

    // Remove mode offers the tags the selection carries.
    await page.getByLabel(`Select ${names[0] ?? ''}`).check();
    await bar
      .getByRole('list', { name: 'Tags on the selection' })
      .getByRole('button', { name: /^blue/ })
      .click();
    await expect(bar.getByLabel('Tags for selected containers')).toHaveValue('blue');
    await bar.getByRole('button', { name: 'Remove Tags' }).click();
    await expect(panel.getByTestId('batch-Success')).toHaveText('1', { timeout: 30_000 });
    await expect
      .poll(
        async () =>
          (await api.get<Container[]>('/containers')).find((c) => c.name === names[0])?.tags,
      )
      .toEqual(['edge-ready']);
    await expect(panel).toHaveCount(0, { timeout: 6000 });

    // Auto-update with a tracking level; the level is locked while auto-update is off.
    await page.getByLabel('Select all containers').check();
    await bar.getByRole('button', { name: 'Auto-update…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Auto-update for 3 containers' });
    await dialog.getByRole('switch', { name: 'Auto-update' }).uncheck();
    await expect(dialog.getByRole('radio', { name: /Minor/ })).toBeDisabled();
    await dialog.getByRole('switch', { name: 'Auto-update' }).check();
    await dialog.getByRole('radio', { name: /Patch/ }).check();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('Enabling auto-update for 3 containers...')).toBeVisible();
    await expect(panel.getByTestId('batch-Success')).toHaveText('3', { timeout: 30_000 });
    await expect(panel).toContainText('Auto-update enabled (patch mode)');
    await expect(
      page
        .getByTestId(`container-row-${names[0] ?? ''}`)
        .getByRole('img', { name: 'Auto-update on (patch)' }),
    ).toBeVisible();
    await page.getByLabel('Search containers').fill('');
    await page.getByRole('button', { name: 'Policy' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Auto-update enabled' }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/policy_auto_update=enabled/);
    await expect(page.getByTestId('container-count')).toHaveText('3 container(s)');
  });

  test('row actions stop and start a container with the toasts', async ({ page, readyServer }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'edge'));
    const name = containers.run('plain', 'row');
    await signIn(page);
    await page.goto('/containers');
    const row = page.getByTestId(`container-row-${name}`);
    await expect(row.getByTestId('state')).toHaveText('Running', { timeout: 15_000 });
    await expect(row.getByRole('button', { name: `Start ${name}`, exact: true })).toBeDisabled();
    const listed = (await api.get<Container[]>('/containers')).find((c) => c.name === name);
    await api.post(`/hosts/${listed?.host_id ?? ''}/containers/${listed?.id ?? ''}/desired-state`, {
      desired_state: 'should_run',
    });
    await row.getByRole('button', { name: `Stop ${name}` }).click();
    await expect(page.getByText('Container stopped successfully')).toBeVisible();
    await expect(row.getByTestId('state')).toHaveText('Stopped (Should Run)');
    await expect(row.getByRole('img', { name: 'Should be running but is exited!' })).toBeVisible();
    await row.getByRole('button', { name: `Start ${name}`, exact: true }).click();
    await expect(page.getByText('Container started successfully')).toBeVisible();
    await expect(row.getByTestId('state')).toHaveText('Running');
  });
});
