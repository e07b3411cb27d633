import { apiFor } from '../fixtures/api.js';
import { TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
];
const MODES = ['Compact', 'Standard', 'Expanded'] as const;
const SERVICES = [
  'web',
  'api',
  'worker',
  'cache',
  'queue',
  'proxy',
  'auth',
  'search',
  'mail',
  'cron',
];

/** The README's picture, written only when asked (`BERTH_README_SCREENSHOT=1`) so a test run leaves the tree clean. */
const README_SCREENSHOT = new URL('../../docs/images/dashboard.png', import.meta.url).pathname;

// Screenshots for a person to look at (kept out of the repository in e2e/.artifacts).
test('three hosts with thirty containers in every mode and size', async ({ page, readyServer }) => {
  test.setTimeout(120_000);
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge-plain', ['staging']));
  await api.post('/hosts', hostPayload('tls', 'vault-tls', ['prod', 'secure', 'us-east', 'db']));
  await api.post('/hosts', {
    name: 'plain-socket',
    url: 'unix:///run/berth-rig-plain/docker.sock',
  });
  for (const engine of ['plain', 'tls'] as const)
    for (const service of SERVICES) containers.run(engine, service);
  containers.run('tls', 'busy', 'yes > /dev/null');

  await signIn(page);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const mode of MODES) {
      await page.getByRole('radio', { name: mode }).click();
      if (mode === 'Compact') await expect(page.getByTestId('compact-list')).toBeVisible();
      else {
        const card = page.getByTestId('host-card-vault-tls');
        await expect(card).toHaveAttribute('data-status', 'online', { timeout: 15_000 });
        await expect(card.getByTestId('metric-CPU')).toBeVisible({ timeout: 10_000 });
      }
      await page.screenshot({
        path: `.artifacts/screenshots/dashboard-${mode.toLowerCase()}-${size.width}x${size.height}.png`,
      });
      if (mode === 'Standard' && size.width === 1440 && process.env.BERTH_README_SCREENSHOT === '1')
        await page.screenshot({ path: README_SCREENSHOT });
    }
    await page.goto('/hosts');
    await expect(page.getByTestId('host-row-vault-tls')).toBeVisible();
    await page.screenshot({
      path: `.artifacts/screenshots/hosts-${size.width}x${size.height}.png`,
    });
    await page.goto('/');
  }
});
