import { randomBytes } from 'node:crypto';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload, rigRegistry } from '../fixtures/rig.js';
import { recordTexts } from '../fixtures/seen-texts.js';
import { expect, signIn, test } from '../fixtures/test.js';

// The container detail dialog's Updates tab against the rig registry: checks
// with the cooldown, tracking mode, policy, the warning box, the force dialog and an update
// with live progress that clears after completion.
const containers = new TestContainers();
const repo = `${rigRegistry()}/berth-e2e/upd-${randomBytes(3).toString('hex')}`;
const pushed: string[] = [];

function push(tag: string) {
  const tmp = `${containers.prefix}-src-${tag}`;
  docker('plain', 'create', '--name', tmp, 'berth-test/busybox:1.0', 'true');
  docker('plain', 'commit', '-c', `LABEL berth.version=${tag}`, tmp, `${repo}:${tag}`);
  docker('plain', 'rm', tmp);
  docker('plain', 'push', '-q', `${repo}:${tag}`);
  pushed.push(`${repo}:${tag}`);
}

test.afterEach(() => {
  containers.removeAll();
  for (const image of pushed.splice(0)) docker('plain', 'rmi', '-f', image);
});

test('the Updates tab checks, changes settings and applies an update with live progress', async ({
  page,
  readyServer,
}) => {
  test.setTimeout(120_000);
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  push('1.0.0');
  push('1.0.1');
  const name = containers.run('plain', 'upd', undefined, `${repo}:1.0.0`);

  await signIn(page);
  await page.goto('/containers');
  // The engine may hold hundreds of containers (a benchmark's): the table draws only the rows
  // in view, so find this one by name first.
  await page.getByLabel('Search containers').fill(name);
  await page.getByRole('button', { name, exact: true }).click({ timeout: 15_000 });
  const dialog = page.getByRole('dialog', { name: `${name} (edge)` });
  await dialog.getByRole('tab', { name: 'Updates' }).click();
  const tab = dialog.getByTestId('updates-tab');
  // Before the first check the banner claims nothing: not checked, not up to date.
  await expect(tab.getByTestId('update-banner')).toHaveText(/^Not Checked\s*Check Now$/);
  await expect(tab.getByTestId('last-checked')).toHaveCount(0);
  await expect(tab.getByTestId('current-image')).toContainText(`${repo}:1.0.0`);
  await expect(tab.getByRole('button', { name: 'Update Now' })).toHaveCount(0);
  await expect(tab.getByText('About Container Updates')).toBeVisible();

  await tab.getByRole('button', { name: 'Check Now' }).click();
  await expect(page.getByText('Update check complete')).toBeVisible();
  await expect(tab.getByTestId('update-banner')).toContainText('Up to Date');
  await expect(tab.getByTestId('update-banner')).not.toContainText('Not Checked');
  await expect(tab.getByTestId('last-checked')).toContainText('Last checked');
  await tab.getByRole('button', { name: 'Check Now' }).click();
  await expect(page.getByText(/Please wait \d second\(s\) before checking again/)).toBeVisible();

  await tab.getByRole('radio', { name: /Patch/ }).click();
  await expect(page.getByText('Tracking mode updated')).toBeVisible();
  await page.waitForTimeout(5000);
  await tab.getByRole('button', { name: 'Check Now' }).click();
  await expect(tab.getByTestId('update-banner')).toContainText('Update Available');
  await expect(tab.getByTestId('latest-image')).toContainText(`${repo}:1.0.1`);

  // Resource links: a bad URL is refused, a good one saved as Manual.
  const changelog = tab.getByTestId('link-changelog');
  await changelog.getByRole('button', { name: 'Edit Changelog URL' }).click();
  await changelog.getByLabel('Changelog URL').fill('not a url');
  await changelog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Invalid URL format')).toBeVisible();
  await expect(
    page.getByText('Please enter a valid URL (e.g., https://github.com/user/repo/releases)'),
  ).toBeVisible();
  await changelog.getByLabel('Changelog URL').fill('https://github.com/acme/app/releases');
  await changelog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Changelog URL saved')).toBeVisible();
  await expect(changelog).toContainText('Manual');

  // Auto-update on with a warn policy: the warning box explains why it will not run.
  await tab.getByRole('switch', { name: 'Auto-update' }).click();
  await expect(page.getByText('Auto-update enabled')).toBeVisible();
  await tab.getByLabel('Update Policy').selectOption('warn');
  await expect(page.getByText('Update policy set to Warn')).toBeVisible();
  await expect(tab.getByTestId('auto-update-warning')).toContainText(
    "Auto-Update Won't Run Automatically",
  );

  // Warn asks first; the update then runs with live progress and clears 3 s after.
  await tab.getByRole('button', { name: 'Update Now' }).click();
  const force = page.getByTestId('force-dialog');
  await expect(force).toContainText('This container has a warn policy');
  // Both the final stage and the toast are brief (the panel clears 3 s after completion), too
  // brief for polling on a loaded machine: record what they show, then assert on the record.
  const stages = await recordTexts(page, '[data-testid="update-progress-message"]');
  const panels = await recordTexts(page, '[data-testid="update-progress"]');
  const toasts = await recordTexts(page, '[data-sonner-toast]');
  await force.getByRole('button', { name: 'Update Anyway' }).click();
  await expect(tab.getByTestId('update-progress')).toBeVisible();
  // Meanwhile the container takes no power actions (a start of its stopped previous self
  // would undo the update).
  await expect(
    page.getByTestId('container-detail').getByRole('button', { name: /^(Start|Stop)$/ }),
  ).toBeDisabled();
  await expect
    .poll(stages, { timeout: 60_000 })
    .toContainEqual(expect.stringContaining('Update complete'));
  await expect
    .poll(toasts)
    .toContainEqual(expect.stringContaining('Container updated successfully'));
  // The detail line follows the stages: the pull's own line ends with how the pull ended
  // (the engine held the pushed image), never "Starting pull..." beside a later stage.
  const shown = await panels();
  expect(shown).toContainEqual(
    expect.stringMatching(/^Creating new container.*Pull complete \(image already present\)$/),
  );
  const later = shown.filter(
    (p) => !p.startsWith('Pulling image') && !p.startsWith('Initializing'),
  );
  expect(later.filter((p) => p.includes('Starting pull...'))).toEqual([]);
  await expect(tab.getByTestId('update-progress')).toHaveCount(0, { timeout: 6000 });
  await expect(tab.getByTestId('update-banner')).toContainText('Up to Date');
  await expect(tab.getByTestId('current-image')).toContainText(`${repo}:1.0.1`);
  await tab.getByLabel('Update Policy').selectOption('');
  await expect(page.getByText('Update policy set to Auto-detect')).toBeVisible();
});

test('a block policy refuses the update with the spec text', async ({ page, readyServer }) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  push('2.0.0');
  push('2.0.1');
  const name = containers.run('plain', 'blk', undefined, `${repo}:2.0.0`);
  await signIn(page);
  await page.goto('/containers');
  // The engine may hold hundreds of containers (a benchmark's): the table draws only the rows
  // in view, so find this one by name first.
  await page.getByLabel('Search containers').fill(name);
  await page.getByRole('button', { name, exact: true }).click({ timeout: 15_000 });
  const dialog = page.getByRole('dialog', { name: `${name} (edge)` });
  await dialog.getByRole('tab', { name: 'Updates' }).click();
  const tab = dialog.getByTestId('updates-tab');
  await tab.getByRole('radio', { name: /Patch/ }).click();
  await expect(page.getByText('Tracking mode updated')).toBeVisible();
  await tab.getByRole('button', { name: 'Check Now' }).click();
  await expect(tab.getByTestId('update-banner')).toContainText('Update Available');
  await tab.getByLabel('Update Policy').selectOption('block');
  await expect(page.getByText('Update policy set to Block')).toBeVisible();
  await tab.getByRole('button', { name: 'Update Now' }).click();
  await expect(page.getByText('Update blocked by policy')).toBeVisible();
  await expect(
    page.getByText('This container has a block policy that prevents updates'),
  ).toBeVisible();
});
