import { randomBytes } from 'node:crypto';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload, rigRegistry } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
const repo = `${rigRegistry()}/berth-e2e/app-${randomBytes(3).toString('hex')}`;
const IDLE = "trap 'exit 0' TERM; while :; do sleep 1; done";
test.afterEach(() => {
  containers.removeAll();
  docker('plain', 'rmi', '-f', `${repo}:1`);
  docker('plain', 'image', 'prune', '-f'); // the image the tag left behind
});

test('a bulk update check finds the image whose tag moved in the registry and skips a local one', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  docker('plain', 'tag', 'berth-test/busybox:1.0', `${repo}:1`);
  docker('plain', 'push', '-q', `${repo}:1`);
  const app = containers.run('plain', 'app', IDLE, `${repo}:1`);
  containers.run('plain', 'local', IDLE);
  // A newer image is pushed under the same tag; the container still runs the old one.
  docker('plain', 'commit', '-c', 'LABEL version=2', app, `${repo}:1`);
  docker('plain', 'push', '-q', `${repo}:1`);

  await signIn(page);
  await page.goto('/containers');
  await page.getByLabel('Search containers').fill(containers.prefix);
  await expect(page.getByTestId('container-count')).toHaveText('2 container(s)', {
    timeout: 15_000,
  });
  await page.getByLabel('Select all containers').check();
  await page.getByTestId('bulk-bar').getByRole('button', { name: 'Check Updates' }).click();
  await expect(page.getByText('Checking updates for 2 containers...')).toBeVisible();
  const panel = page.getByRole('complementary', { name: 'Batch job' });
  await expect(panel.getByTestId('batch-Success')).toHaveText('1', { timeout: 30_000 });
  await expect(panel.getByTestId('batch-Skipped')).toHaveText('1');
  await expect(panel).toContainText('Update available');
  await expect(panel).toContainText('Local image: no registry digest to compare');
  await expect(page.getByTestId(`container-row-${app}`).getByText('Update')).toBeVisible();
});
