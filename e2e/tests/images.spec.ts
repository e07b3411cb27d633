import { randomBytes } from 'node:crypto';
import { startHoldProxy } from '../../packages/server/src/test/hold-proxy.js';
import { apiFor } from '../fixtures/api.js';
import { docker } from '../fixtures/docker.js';
import { hostPayload, rigRegistry } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

// The images screens on the rig's plain engine, with images built here from the rig's busybox
// (no internet): the fleet page's list with who uses each image and the badges, inspect, a
// remove the engine refuses while a container runs the image, a pull from the rig's registry
// with its progress, a prune after its dry run, the host modal's tab, and cards on a phone.
const SHOTS = new URL('../.artifacts/images/', import.meta.url).pathname;
const suffix = randomBytes(3).toString('hex');
const repo = `e2e-images-${suffix}`;
const remote = `${rigRegistry()}/berth-test/e2e-pull-${suffix}`;
const runner = `e2e-images-run-${suffix}`;
const cli = (...args: string[]) => docker('plain', ...args);

function build(ref: string, run = 'true'): void {
  const tmp = `e2e-images-src-${randomBytes(3).toString('hex')}`;
  cli('run', '--name', tmp, 'berth-test/busybox:1.0', 'sh', '-c', run);
  cli('commit', tmp, ref);
  cli('rm', tmp);
}

test.beforeAll(() => {
  build(`${repo}:used`);
  build(`${repo}:dangle`, 'echo one > /one');
  build(`${repo}:dangle`, 'echo two > /two');
  cli('run', '-d', '--name', runner, `${repo}:used`, 'sh', '-c', 'while :; do sleep 1; done');
  build(`${remote}:1`, 'echo pulled > /pulled');
  cli('push', '-q', `${remote}:1`);
  cli('rmi', `${remote}:1`);
  build(`${remote}:stall`, 'echo stall > /stall');
  cli('push', '-q', `${remote}:stall`);
  cli('rmi', `${remote}:stall`);
});

test.afterAll(() => {
  for (const args of [
    ['rm', '-f', runner],
    ['rmi', '-f', `${repo}:used`, `${repo}:dangle`, `${remote}:1`, `${remote}:stall`],
  ]) {
    try {
      cli(...args);
    } catch {
      // gone already
    }
  }
});

test('images: list, inspect, refused remove, pull with progress, prune, host tab, phone', async ({
  page,
  readyServer,
}) => {
  test.setTimeout(120_000);
  const api = await apiFor(readyServer.url);
  const host = await api.post<{ id: string }>('/hosts', hostPayload('plain', 'img-plain'));
  await signIn(page);
  await page.goto('/images');
  await expect(page.getByTestId('images-page')).toBeVisible();
  await page.getByLabel('Host filter').selectOption(host.id);
  await page.getByLabel('Search images').fill(repo);

  const used = page.locator('tbody tr').filter({ hasText: `${repo}:used` });
  await expect(used).toBeVisible({ timeout: 20_000 });
  await expect(used).toContainText(runner);
  await expect(used.getByTestId('badge-unused')).toHaveCount(0);
  const dangle = page.locator('tbody tr').filter({ hasText: `${repo}:dangle` });
  await expect(dangle).toBeVisible();

  // Inspect: the run configuration and the history.
  await used.getByRole('button', { name: `Inspect ${repo}:used` }).click();
  const details = page.getByRole('dialog', { name: `${repo}:used` });
  await expect(details.getByTestId('image-history').locator('tbody tr').first()).toBeVisible();
  await expect(details.getByText('linux/')).toBeVisible();
  await details.getByRole('button', { name: 'Close' }).click();

  // Remove: the dialog names the container; the engine refuses, in its words.
  await used.getByRole('button', { name: `Remove ${repo}:used` }).click();
  const remove = page.getByRole('dialog', { name: 'Remove image?' });
  await expect(remove.getByTestId('image-users')).toContainText(runner);
  await remove.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(remove.getByTestId('remove-error')).toContainText('being used by running container');
  await remove.getByRole('button', { name: 'Force…' }).click();
  await expect(page.getByRole('dialog', { name: 'Force removal?' })).toContainText(runner);
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Pull from the rig's registry, with progress, then it is listed.
  await page.getByRole('button', { name: 'Pull' }).click();
  const pull = page.getByTestId('pull-dialog');
  await pull.getByLabel('Reference').fill('Not A Reference');
  await expect(pull.getByText('Reference must be an image reference')).toBeVisible();
  await pull.getByLabel('Reference').fill(`${remote}:1`);
  await pull.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(pull.getByTestId('pull-result')).toHaveText(`Pulled ${remote}:1`, {
    timeout: 30_000,
  });
  await expect(pull.getByTestId('pull-progress')).toContainText('Pull complete');

  // A pull that stalls (the registry behind a proxy holding its blob download): Cancel pull
  // stops it on the engine, and the dialog says who cancelled it.
  const proxy = await startHoldProxy(Number(rigRegistry().split(':').at(-1)));
  try {
    const stalled = `127.0.0.1:${proxy.port}/berth-test/e2e-pull-${suffix}:stall`;
    const held = proxy.holdNext('/blobs/');
    await pull.getByLabel('Reference').fill(stalled);
    await pull.getByRole('button', { name: 'Pull', exact: true }).click();
    await held;
    await page.screenshot({ path: `${SHOTS}pull-stalled.png` });
    await pull.getByRole('button', { name: 'Cancel pull' }).click();
    await expect(pull.getByTestId('pull-result')).toHaveText(
      `The pull of ${stalled} was cancelled by admin`,
    );
    await expect(pull.getByRole('button', { name: 'Cancel pull' })).toBeHidden();
    await expect(pull.getByTestId('pull-progress')).toBeHidden();
    await page.screenshot({ path: `${SHOTS}pull-cancelled.png` });
    await expect(pull.getByRole('button', { name: 'Pull', exact: true })).toBeEnabled();
  } finally {
    await proxy.close();
  }
  await pull.getByRole('button', { name: 'Close' }).first().click();
  await page.getByLabel('Search images').fill(remote);
  await expect(page.locator('tbody tr').filter({ hasText: `${remote}:1` })).toBeVisible();

  // Prune: the dry run's count and space first. A fresh dangling image of this test's own, as
  // other tests on the engine may prune meanwhile.
  build(`${repo}:dangle`, 'echo three > /three');
  await page.getByRole('button', { name: 'Prune' }).click();
  const prune = page.getByTestId('prune-dialog');
  await prune.getByLabel('Host').selectOption(host.id);
  await expect(prune.getByTestId('prune-preview')).toContainText(/\d+ dangling images?, up to/);
  await prune.getByRole('button', { name: /^Prune \d+$/ }).click();
  await expect(prune.getByTestId('prune-result')).toContainText(/Removed \d+ images?, freed/);
  await prune.getByRole('button', { name: 'Close' }).first().click();

  // The host modal's tab lists the same host's images.
  await page.goto(`/hosts?hostId=${host.id}`);
  const modal = page.getByTestId('host-modal');
  await modal.getByRole('tab', { name: 'Images' }).click();
  await modal.getByLabel('Search images').fill(repo);
  await expect(
    modal.getByTestId('host-images-view').locator('tbody tr').filter({ hasText: runner }),
  ).toBeVisible({ timeout: 20_000 });

  // A phone gets cards.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/images');
  await page.getByLabel('Search images').fill(`${repo}:used`);
  const cards = page.getByTestId('image-cards');
  await expect(cards.locator('li').filter({ hasText: runner })).toBeVisible({ timeout: 20_000 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});
