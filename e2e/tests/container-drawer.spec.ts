import type { Container, Host } from '@berth/contracts';
import type { Page } from '@playwright/test';
import { apiFor } from '../fixtures/api.js';
import { TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

test('the container drawer opens from the host drawer: overview, tags, stop and start, events, logs, full details', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.patch('/v2/user/preferences', { simplified_workflow: false });
  const host = await api.post<Host>('/hosts', hostPayload('plain', 'edge'));
  const name = containers.run(
    'plain',
    'drawer',
    "trap 'exit 0' TERM; i=0; while :; do i=$((i+1)); echo tick-$i; sleep 1; done",
  );
  await signIn(page);
  await page.goto('/hosts');
  await page.getByRole('button', { name: 'View edge' }).click();
  const hostDrawer = page.getByRole('dialog', { name: 'edge' });
  await hostDrawer.getByRole('button', { name: new RegExp(name) }).click({ timeout: 15_000 });

  const drawer = page.getByRole('dialog', { name: 'Container Details' });
  await expect(drawer.getByTestId('drawer-container-name')).toHaveText(name);
  await expect(drawer.getByTestId('drawer-state')).toHaveText('Running');
  expect((await drawer.boundingBox())?.width).toBe(480);

  // Drawer tag rules: refused in place, nothing sent; then a valid save.
  await drawer.getByRole('button', { name: 'Edit', exact: true }).click();
  await drawer.getByLabel('Container tags').fill('web tier');
  await drawer.getByRole('button', { name: 'Save Tags' }).click();
  await expect(drawer.getByRole('alert')).toHaveText(
    'Invalid characters (alphanumeric, -, _, :, . only)',
  );
  await drawer.getByLabel('Container tags').fill('Web, web');
  await drawer.getByRole('button', { name: 'Save Tags' }).click();
  await expect(drawer.getByRole('alert')).toHaveText('Duplicate tag');
  await drawer.getByLabel('Container tags').fill('web, edge-01');
  await drawer.getByRole('button', { name: 'Save Tags' }).click();
  await expect(page.getByText('Container tags updated successfully')).toBeVisible();
  const listed = async () =>
    (await api.get<Container[]>(`/containers?host_id=${host.id}`)).find((c) => c.name === name);
  await expect.poll(async () => (await listed())?.tags).toEqual(['web', 'edge-01']);

  // should_run makes a stopped container a warning in the drawer.
  await drawer.getByLabel('Desired state').selectOption('should_run');
  await expect(page.getByText('Desired state set to Should Run')).toBeVisible();
  await drawer.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByText('Container stopping...')).toBeVisible();
  await expect(drawer.getByTestId('drawer-state')).toHaveText('Stopped (Should Run)', {
    timeout: 15_000,
  });
  await expect(drawer.getByText('Should be running but is exited!')).toBeVisible();
  await drawer.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('Container starting...')).toBeVisible();
  await expect(drawer.getByTestId('drawer-state')).toHaveText('Running', { timeout: 15_000 });

  await drawer.getByRole('tab', { name: 'Events' }).click();
  await expect(drawer.getByTestId('container-drawer-events')).toContainText(
    'desired state set to should_run by admin',
  );
  await drawer.getByRole('tab', { name: 'Logs' }).click();
  await expect(drawer.getByTestId('log-lines')).toContainText('tick-', { timeout: 8000 });

  await drawer.getByRole('button', { name: 'More actions' }).click();
  await expect(page.getByRole('menuitem', { name: 'Pin on Dashboard' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Open Full Details' }).click();
  await expect(drawer).toHaveCount(0);
  const detail = page.getByRole('dialog', { name: `${name} (edge)` });
  await expect(detail.getByTestId('detail-state')).toHaveText('Running');
});

test('without the full-details mode, a name in the containers table opens the drawer as a preview', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.patch('/v2/user/preferences', { simplified_workflow: false });
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const name = containers.run('plain', 'preview');
  const live = watchContainerSeries(page);
  await signIn(page);
  await page.goto('/containers');
  live.series.length = 0; // the page signed in on had its own socket
  // The containers page shows no sparklines: its socket says so and gets none.
  await expect.poll(() => live.series.length, { timeout: 15_000 }).toBeGreaterThan(2);
  expect(live.urls.at(-1)).toMatch(/\/ws\/\?protocol=2&sparklines=0$/);
  expect(live.series.every((n) => n === 0)).toBe(true);
  const sockets = live.urls.length;
  await page.getByRole('button', { name, exact: true }).click({ timeout: 15_000 });
  const drawer = page.getByRole('dialog', { name: 'Container Details' });
  await expect(drawer.getByTestId('drawer-container-name')).toHaveText(name);
  // The drawer shows them: the same socket asks, and its charts draw from the full state
  // that brings them.
  await expect(
    drawer.getByTestId('container-drawer-performance').locator('polyline').first(),
  ).toBeVisible({ timeout: 15_000 });
  expect(live.series.some((n) => n > 0)).toBe(true);
  expect(live.urls).toHaveLength(sockets);
  await drawer.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Open Full Details' }).click();
  await expect(page.getByRole('dialog', { name: `${name} (edge)` })).toBeVisible();
});

/** Every live socket's URL, and per containers_update how many hosts' container series it has. */
function watchContainerSeries(page: Page) {
  const urls: string[] = [];
  const series: number[] = [];
  page.on('websocket', (ws) => {
    urls.push(ws.url());
    ws.on('framereceived', ({ payload }) => {
      const text = String(payload);
      if (!text.startsWith('{"type":"containers_update"')) return;
      const update = JSON.parse(text) as { data: { container_sparklines: object } };
      series.push(Object.keys(update.data.container_sparklines).length);
    });
  });
  return { urls, series };
}
