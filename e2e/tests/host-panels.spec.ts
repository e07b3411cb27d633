import type { Container, Host, Preferences } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

test.describe('hosts table, drawer and detail modal', () => {
  test('sort saved after a change, search by URL, bulk tags with their toasts', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'alpha'));
    await api.post('/hosts', hostPayload('tls', 'beta'));
    await signIn(page);
    await page.goto('/hosts');
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(2);

    await page.getByRole('button', { name: 'Hostname' }).click();
    await page.getByRole('button', { name: 'Hostname' }).click();
    await expect(rows.first()).toHaveAttribute('data-testid', 'host-row-beta');
    await expect
      .poll(async () => (await api.get<Preferences>('/v2/user/preferences')).host_table_sort)
      .toEqual([{ id: 'name', desc: true }]);
    await page.reload();
    await expect(rows.first()).toHaveAttribute('data-testid', 'host-row-beta');

    await page.getByLabel('Search hosts').fill('127.0.0.1:23750');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-testid', 'host-row-alpha');
    await page.getByLabel('Search hosts').fill('');

    await page.getByLabel('Select all hosts').check();
    const bar = page.getByTestId('bulk-tag-bar');
    await expect(bar).toContainText('2 selected');
    await bar.getByRole('button', { name: 'Add Tags' }).click();
    await expect(bar.getByText('Please enter at least one tag')).toBeVisible();
    await bar.getByLabel('Tags for selected hosts').fill(' Blue, green ');
    await bar.getByRole('button', { name: 'Add Tags' }).click();
    await expect(page.getByText('Successfully added tags for 2 host(s)')).toBeVisible();
    await expect(page.getByTestId('host-row-alpha').getByText('blue')).toBeVisible();
    await expect(page.getByTestId('host-row-beta').getByText('green')).toBeVisible();
    const tagsOf = async () =>
      (await api.get<Host[]>('/hosts')).map((h) => [h.name, h.tags] as const).sort();
    expect(await tagsOf()).toEqual([
      ['alpha', ['blue', 'green']],
      ['beta', ['blue', 'green']],
    ]);

    await page.getByLabel('Select beta').check();
    await bar.getByLabel('Tags for selected hosts').fill('blue');
    await bar.getByRole('button', { name: 'Remove Tags' }).click();
    await expect(page.getByText('Successfully removed tags for 1 host(s)')).toBeVisible();
    expect(await tagsOf()).toEqual([
      ['alpha', ['blue', 'green']],
      ['beta', ['green']],
    ]);
  });

  test('the drawer shows connection, performance, containers, events and edits tags; Expand opens the modal', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.patch('/v2/user/preferences', { simplified_workflow: false });
    const host = await api.post<Host>('/hosts', {
      ...hostPayload('plain', 'edge', ['prod']),
      description: 'Edge node in Frankfurt',
    });
    const name = containers.run('plain', 'web');
    await signIn(page);
    await page.goto('/hosts');
    await page.getByRole('button', { name: 'View edge' }).click();

    const drawer = page.getByRole('dialog', { name: 'edge' });
    await expect(drawer.getByTestId('connection-status')).toHaveText('Connected', {
      timeout: 15_000,
    });
    await expect(
      drawer.getByText('Docker API traffic is not encrypted. Enable TLS for production use.'),
    ).toBeVisible();
    await expect(drawer.getByText('23750', { exact: true })).toBeVisible();
    await expect(drawer.getByText('Edge node in Frankfurt')).toBeVisible();
    await expect(drawer.getByTestId('drawer-containers')).toContainText(name);
    await expect(drawer.getByTestId('drawer-performance')).toBeVisible({ timeout: 10_000 });
    await expect(drawer.getByTestId('host-events')).toContainText('Host edge added');
    await expect(
      drawer.getByRole('link', { name: 'view all containers on this host' }),
    ).toHaveAttribute('href', `/containers?hostId=${host.id}`);
    await expect(
      drawer.getByRole('link', { name: 'view all events for this host' }),
    ).toHaveAttribute('href', `/events?host_id=${host.id}`);

    await drawer.getByLabel('Sort host containers').selectOption('name');
    await expect
      .poll(async () => (await api.get<Preferences>('/v2/user/preferences')).hostContainerSorts)
      .toEqual({ [host.id]: 'name' });

    await drawer.getByRole('button', { name: 'Edit', exact: true }).click();
    await drawer.getByRole('button', { name: 'Save Tags' }).click();
    await expect(page.getByText('No changes to save')).toBeVisible();
    await drawer.getByRole('button', { name: 'Edit', exact: true }).click();
    await drawer.getByLabel('Host tags').fill('prod, Frankfurt');
    await drawer.getByRole('button', { name: 'Save Tags' }).click();
    await expect(page.getByText('Host tags updated successfully')).toBeVisible();
    await expect(drawer.getByTestId('host-tags')).toContainText('frankfurt');

    await drawer.getByRole('button', { name: 'Expand' }).click();
    const modal = page.getByRole('dialog', { name: 'Hosts > edge' });
    const running = (await api.get<Container[]>(`/containers?host_id=${host.id}`)).filter(
      (c) => c.state === 'running',
    ).length;
    await expect(modal.getByTestId('stat-Running')).toHaveText(`Running${running}`);
    await expect(modal.getByRole('tab', { name: 'Overview' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(modal.getByText('Live Stats')).toBeVisible();
    await expect(modal.getByRole('img', { name: 'CPU chart' })).toBeVisible();
    await modal.getByRole('tab', { name: 'Containers' }).click();
    await expect(modal.getByTestId('host-modal-containers')).toContainText(name);
    const onHost = (await api.get<Container[]>(`/containers?host_id=${host.id}`)).length;
    await expect(modal.getByTestId('container-count')).toHaveText(`${onHost} container(s)`);
    await expect(modal.getByRole('button', { name: 'Hosts' })).toHaveCount(0); // forced to this host
    await page.keyboard.press('Escape');
    await expect(modal).toHaveCount(0);

    // /hosts?hostId= opens the host on Overview and drops the parameter.
    await page.goto(`/hosts?hostId=${host.id}`);
    await expect(modal.getByRole('tab', { name: 'Overview' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page).toHaveURL(/\/hosts$/);
    await modal.getByRole('button', { name: 'Close' }).click();
    await expect(modal).toHaveCount(0);
  });

  test('the delete confirmation states the impact, and an edit from a dashboard card opens the dialog', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'edge'));
    await signIn(page);
    await page.getByRole('button', { name: 'Host menu for edge' }).click();
    await page.getByRole('menuitem', { name: 'Edit Host' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit Host' }).getByLabel('Name')).toHaveValue(
      'edge',
    );
    await page.keyboard.press('Escape');

    await page.goto('/hosts');
    await page.getByRole('button', { name: 'Delete edge' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Host' });
    await expect(confirm).toContainText('Its 0 open alert(s) will be resolved');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Host deleted successfully')).toBeVisible();
  });
});
