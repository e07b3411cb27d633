import { apiFor } from '../fixtures/api.js';
import { TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, newUserReachesDashboard as signInAs, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

// Settings → Users: an admin limits an operator to hosts tagged `staging`; the operator signs
// in and sees only the staging host and its containers, never the prod host or its containers.
test('an operator limited to staging sees only the staging host and its containers', async ({
  page,
  browser,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'scope-staging', ['staging']));
  await api.post('/hosts', hostPayload('tls', 'scope-prod', ['prod']));
  const stagingBox = containers.run('plain', 'scope-web');
  const prodBox = containers.run('tls', 'scope-db');

  await signIn(page);
  await page.goto('/settings?tab=users');
  await expect(page.getByTestId('user-row').filter({ hasText: 'admin' })).toContainText(
    'All hosts',
  );
  await page.getByRole('button', { name: 'Add user' }).click();
  const add = page.getByRole('dialog', { name: 'Add user' });
  await add.getByLabel('Username').fill('sam');
  await add.getByLabel('Role').selectOption({ label: 'Admin' });
  await expect(add.getByText('Admins reach every host.')).toBeVisible();
  await add.getByLabel('Role').selectOption({ label: 'Operator' });
  // The tags hosts have are offered; one click adds it to the field.
  await add.getByRole('button', { name: 'staging', exact: true }).click();
  await expect(add.getByLabel('Host tags')).toHaveValue('staging');
  await expect(add.getByText('Only hosts tagged staging.')).toBeVisible();
  await add.getByRole('button', { name: 'Add' }).click();
  const shown = page.getByRole('dialog', { name: 'User "sam" added' });
  const password = await shown.getByLabel('One-time password').inputValue();
  await shown.getByRole('button', { name: 'Done' }).click();
  const row = page.getByTestId('user-row').filter({ hasText: 'sam' });
  await expect(row.getByTestId('user-hosts')).toHaveText('staging');

  const operator = await signInAs(browser, readyServer.url, 'sam', password);
  await operator.page.goto('/hosts');
  await expect(operator.page.getByTestId('host-row-scope-staging')).toBeVisible({
    timeout: 15_000,
  });
  await expect(operator.page.getByTestId('host-row-scope-prod')).toHaveCount(0);
  await operator.page.goto('/containers');
  await expect(operator.page.getByTestId(`container-row-${stagingBox}`)).toBeVisible({
    timeout: 15_000,
  });
  await expect(operator.page.getByTestId(`container-row-${prodBox}`)).toHaveCount(0);
  // The server decides: asking for the prod host answers as if it did not exist.
  const hosts = await operator.page.request.get('/api/hosts');
  expect((await hosts.json()) as { name: string }[]).toEqual([
    expect.objectContaining({ name: 'scope-staging' }),
  ]);
  await operator.close();

  // The admin widens the scope in the Edit dialog: it applies at the operator's next request.
  await row.getByRole('button', { name: 'Actions for sam' }).click();
  await page.getByRole('menuitem', { name: 'Edit…' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit sam' });
  await expect(edit.getByLabel('Host tags')).toHaveValue('staging');
  await edit.getByLabel('Host tags').fill('');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByTestId('user-hosts')).toHaveText('All hosts');
});
