import { apiFor } from '../fixtures/api.js';
import { TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

test('a long container list renders only the rows in view, and still scrolls and filters', async ({
  page,
  readyServer,
}) => {
  test.setTimeout(120_000);
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const names = containers.createMany('plain', 'many', 150);
  await signIn(page);
  await page.goto('/containers');
  const count = page.getByTestId('container-count');
  // Only this test's containers (the engine may hold others): 150 of them, sorted by name.
  await page.getByLabel('Search containers').fill(`${containers.prefix}-many-`);
  await expect(count).toHaveText('150 container(s)', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Name', exact: true }).click(); // A-Z
  const rows = page.locator('tbody tr[data-testid^="container-row-"]');
  await expect(page.getByTestId(`container-row-${names[0] ?? ''}`)).toBeVisible();
  expect(await rows.count()).toBeLessThan(80);

  // Scrolled to the end, the last name is drawn.
  const last = names.at(-1) ?? '';
  await page.locator('main').evaluate((main) => main.scrollTo({ top: main.scrollHeight }));
  await expect(page.getByTestId(`container-row-${last}`)).toBeVisible();

  await page.getByLabel('Search containers').fill(`${containers.prefix}-many-07`);
  await expect(count).toHaveText('10 container(s)');
  await expect(rows).toHaveCount(10);
  await expect(page.getByTestId(`container-row-${containers.prefix}-many-075`)).toBeVisible();
});
