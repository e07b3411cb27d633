import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiFor } from '../fixtures/api.js';
import { docker } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

// The volumes and networks screens on the rig's plain engine: lists with who uses each and
// the unused badges, inspect, create (a bad subnet named before sending), a remove the engine
// refuses while a container uses it, force naming the dependant, prune after its dry run,
// the host modal's tabs, and cards on a phone. The engine is shared with other tests: a prune
// here is narrowed to this test's own names (see onlyOurs), so a neighbour's unused volume or
// network is never removed.
const suffix = randomBytes(3).toString('hex');
const vol = (what: string) => `e2e-vol-${suffix}-${what}`;
const net = (what: string) => `e2e-net-${suffix}-${what}`;
const user = `e2e-vn-user-${suffix}`;
const cli = (...args: string[]) => docker('plain', ...args);
const third = 20 + ((randomBytes(1)[0] ?? 0) % 200);

test.beforeAll(() => {
  cli('volume', 'create', vol('used'));
  cli('volume', 'create', vol('spare'));
  cli('network', 'create', net('used'));
  cli('network', 'create', net('spare'));
  cli(
    'run',
    '-d',
    '--name',
    user,
    '--network',
    net('used'),
    '-v',
    `${vol('used')}:/data`,
    'berth-test/busybox:1.0',
    'sh',
    '-c',
    "trap 'exit 0' TERM; while :; do sleep 1; done",
  );
});

test.afterAll(() => {
  const tries = [
    ['rm', '-f', user],
    ['volume', 'rm', '-f', vol('used'), vol('spare'), vol('made')],
    ['network', 'rm', net('used'), net('spare'), net('made')],
  ];
  for (const args of tries) {
    try {
      cli(...args);
    } catch {
      // some were removed by the test
    }
  }
});

/** A prune request narrowed to this test's own names: the engine is shared. */
async function onlyOurs(
  page: Page,
  path: string,
  key: 'names' | 'ids',
  keep: (v: string) => boolean,
) {
  await page.route(`**${path}`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const body = route.request().postDataJSON() as Record<string, string[]>;
    const mine = (body[key] ?? []).filter(keep);
    return route.continue({ postData: JSON.stringify({ [key]: mine }) });
  });
}

test('volumes: list, inspect, create, refused remove, force, prune, host tab, phone', async ({
  page,
  readyServer,
}) => {
  test.setTimeout(120_000);
  const api = await apiFor(readyServer.url);
  const host = await api.post<{ id: string }>('/hosts', hostPayload('plain', 'vol-plain'));
  await signIn(page);
  await page.goto('/volumes');
  await expect(page.getByTestId('volumes-page')).toBeVisible();
  await page.getByLabel('Host filter').selectOption(host.id);
  await page.getByLabel('Search volumes').fill(`e2e-vol-${suffix}`);
  const used = page.getByTestId(`volume-row-${vol('used')}`);
  await expect(used).toBeVisible({ timeout: 20_000 });
  await expect(used).toContainText(user);
  await expect(used.getByTestId('badge-unused')).toHaveCount(0);
  await expect(
    page.getByTestId(`volume-row-${vol('spare')}`).getByTestId('badge-unused'),
  ).toBeVisible();

  // Inspect: the engine's answer.
  await used.getByRole('button', { name: `Inspect ${vol('used')}` }).click();
  const details = page.getByRole('dialog', { name: vol('used') });
  await expect(details.getByTestId('volume-details')).toContainText('"Driver": "local"');
  await page.keyboard.press('Escape');

  // Create, with a label; then it is listed.
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const create = page.getByTestId('create-volume');
  await create.getByLabel('Host').selectOption(host.id);
  await create.getByLabel('Name').fill('-bad');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByRole('alert')).toContainText('Name');
  await create.getByLabel('Name').fill(vol('made'));
  await create.getByLabel('Labels').fill('team=e2e');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByTestId(`volume-row-${vol('made')}`)).toBeVisible();

  // Remove: the dialog names the container; the engine refuses, in its words; force is refused
  // while it runs.
  await used.getByRole('button', { name: `Remove ${vol('used')}` }).click();
  const remove = page.getByRole('dialog', { name: 'Remove volume?' });
  await expect(remove.getByTestId('volume-users')).toContainText(user);
  await remove.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(remove.getByTestId('remove-error')).toContainText('volume is in use');
  await remove.getByRole('button', { name: 'Force…' }).click();
  const force = page.getByRole('dialog', { name: 'Force removal?' });
  await expect(force).toContainText(user);
  await force.getByRole('button', { name: 'Force remove' }).click();
  await expect(force.getByTestId('remove-error')).toContainText('stop it first');
  await force.getByRole('button', { name: 'Cancel' }).click();

  // Prune: the dry run lists our spare volume; the prune removes it.
  await onlyOurs(page, '/prune/volumes', 'names', (n) => n.startsWith(`e2e-vol-${suffix}`));
  await page.getByRole('button', { name: 'Prune' }).click();
  const prune = page.getByTestId('prune-dialog');
  await prune.getByLabel('Host').selectOption(host.id);
  await expect(prune.getByTestId('prune-preview')).toContainText(/\d+ unused volumes?/);
  await expect(prune).toContainText(vol('spare'));
  await prune.getByRole('button', { name: /^Prune \d+$/ }).click();
  await expect(prune.getByTestId('prune-result')).toContainText(/Removed 2 volumes/);
  await prune.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByTestId(`volume-row-${vol('spare')}`)).toHaveCount(0);

  // The host modal's tab lists the same host's volumes.
  await page.goto(`/hosts?hostId=${host.id}`);
  const modal = page.getByTestId('host-modal');
  await modal.getByRole('tab', { name: 'Volumes' }).click();
  await modal.getByLabel('Search volumes').fill(vol('used'));
  await expect(modal.getByTestId(`volume-row-${vol('used')}`)).toBeVisible({ timeout: 20_000 });

  // A phone gets cards, and nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/volumes');
  await page.getByLabel('Search volumes').fill(vol('used'));
  await expect(page.getByTestId(`volume-card-${vol('used')}`)).toContainText(user, {
    timeout: 20_000,
  });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

test('networks: list, inspect, create with checks, refused removes, prune, host tab, phone', async ({
  page,
  readyServer,
}) => {
  test.setTimeout(120_000);
  const api = await apiFor(readyServer.url);
  const host = await api.post<{ id: string }>('/hosts', hostPayload('plain', 'net-plain'));
  await signIn(page);
  await page.goto('/networks');
  await expect(page.getByTestId('networks-page')).toBeVisible();
  await page.getByLabel('Host filter').selectOption(host.id);
  const used = page.getByTestId(`network-row-${net('used')}`);
  await expect(used).toBeVisible({ timeout: 20_000 });
  await expect(used).toContainText(user);
  // bridge is built-in: marked, and offers no remove.
  const bridge = page.getByTestId('network-row-bridge');
  await expect(bridge.getByTestId('badge-builtin')).toBeVisible();
  await expect(bridge.getByRole('button', { name: 'Remove bridge' })).toHaveCount(0);
  await page.getByLabel('Search networks').fill(`e2e-net-${suffix}`);
  await expect(
    page.getByTestId(`network-row-${net('spare')}`).getByTestId('badge-unused'),
  ).toBeVisible();

  await used.getByRole('button', { name: `Inspect ${net('used')}` }).click();
  await expect(page.getByTestId('network-details')).toContainText('"Driver": "bridge"');
  await page.keyboard.press('Escape');

  // Create: a gateway outside its subnet is named before anything is sent.
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const create = page.getByTestId('create-network');
  await create.getByLabel('Host').selectOption(host.id);
  await create.getByLabel('Name').fill(net('made'));
  await create.getByLabel('Subnet').fill(`10.214.${third}.0/24`);
  await create.getByLabel('Gateway').fill('192.168.0.1');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByRole('alert')).toContainText('gateway: must lie inside the subnet');
  await create.getByLabel('Gateway').fill(`10.214.${third}.1`);
  await create.getByLabel('Internal').check();
  await create.getByRole('button', { name: 'Create' }).click();
  const made = page.getByTestId(`network-row-${net('made')}`);
  await expect(made).toContainText(`10.214.${third}.0/24 via 10.214.${third}.1`);
  await expect(made).toContainText('internal');

  // A duplicate name: the engine's words.
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await create.getByLabel('Host').selectOption(host.id);
  await create.getByLabel('Name').fill(net('made'));
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByRole('alert')).toContainText('already exists');
  await create.getByRole('button', { name: 'Cancel' }).click();

  // Remove one in use: refused in the engine's words, the container named.
  await used.getByRole('button', { name: `Remove ${net('used')}` }).click();
  const remove = page.getByRole('dialog', { name: 'Remove network?' });
  await expect(remove.getByTestId('network-users')).toContainText(user);
  await remove.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(remove.getByTestId('remove-error')).toContainText('active endpoints');
  await remove.getByRole('button', { name: 'Cancel' }).click();

  // Prune: the dry run names ours; the prune removes only those.
  const mine = cli('network', 'ls', '-q', '--no-trunc', '--filter', `name=e2e-net-${suffix}`).split(
    '\n',
  );
  await onlyOurs(page, '/prune/networks', 'ids', (id) => mine.includes(id));
  await page.getByRole('button', { name: 'Prune' }).click();
  const prune = page.getByTestId('prune-dialog');
  await prune.getByLabel('Host').selectOption(host.id);
  await expect(prune.getByTestId('prune-preview')).toContainText(/\d+ unused networks?/);
  await expect(prune).toContainText(net('spare'));
  await expect(prune).not.toContainText(net('used'));
  await prune.getByRole('button', { name: /^Prune \d+$/ }).click();
  await expect(prune.getByTestId('prune-result')).toContainText('Removed 2 networks');
  await prune.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByTestId(`network-row-${net('spare')}`)).toHaveCount(0);

  // The host modal's tab.
  await page.goto(`/hosts?hostId=${host.id}`);
  const modal = page.getByTestId('host-modal');
  await modal.getByRole('tab', { name: 'Networks' }).click();
  await modal.getByLabel('Search networks').fill(net('used'));
  await expect(modal.getByTestId(`network-row-${net('used')}`)).toBeVisible({ timeout: 20_000 });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/networks');
  await page.getByLabel('Search networks').fill(net('used'));
  await expect(page.getByTestId(`network-card-${net('used')}`)).toContainText(user, {
    timeout: 20_000,
  });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});
