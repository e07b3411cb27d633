import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

test('the logs page merges two containers and follows new lines', async ({ page, readyServer }) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  await api.post('/hosts', hostPayload('tls', 'vault'));
  const loop = (word: string) =>
    `trap 'exit 0' TERM; i=0; while :; do i=$((i+1)); echo ${word}-$i; sleep 1; done`;
  const alpha = containers.run('plain', 'alpha', loop('alpha'));
  const beta = containers.run('tls', 'beta', loop('beta'));
  await signIn(page);
  await page.goto('/logs');
  await expect(page.getByText('No containers selected')).toBeVisible();
  const picker = page.getByTestId('container-picker');
  await picker.getByRole('checkbox', { name: alpha }).check({ timeout: 15_000 });
  await picker.getByRole('checkbox', { name: beta }).check();

  const lines = page.getByTestId('log-lines');
  await expect(lines).toContainText(`${alpha} alpha-1`);
  await expect(lines).toContainText(`${beta} beta-1`);
  // A line the container prints now shows up through auto-refresh.
  const next = Number(docker('plain', 'logs', '--tail', '1', alpha).split('-').at(-1)) + 2;
  await expect(lines).toContainText(`alpha-${next}`, { timeout: 8000 });

  await page.getByLabel('Search logs').fill('^beta-[12]$');
  await expect(lines).not.toContainText('alpha-');
  await expect(lines).toContainText('beta-2');
});
