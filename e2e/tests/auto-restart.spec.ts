import type { Container } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

const RETRY_DELAY_S = 5;

test('a container with auto-restart killed with docker kill is back up; one stopped by the user stays down', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.put('/settings', { retry_delay: RETRY_DELAY_S, max_retries: 3 });
  await api.post('/hosts', hostPayload('plain', 'edge'));
  const guarded = containers.run('plain', 'guarded');
  const manual = containers.run('plain', 'manual');
  await signIn(page);
  await page.goto('/containers');

  // Auto-restart switched on in the browser for both containers.
  for (const name of [guarded, manual]) {
    await page.getByRole('button', { name, exact: true }).click({ timeout: 15_000 });
    const dialog = page.getByRole('dialog', { name: `${name} (edge)` });
    await dialog.getByRole('switch', { name: 'Auto-restart' }).check();
    await expect(page.getByText('Auto-restart enabled').first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }
  await expect
    .poll(async () =>
      (await api.get<Container[]>('/containers'))
        .filter((c) => c.name === guarded || c.name === manual)
        .map((c) => c.auto_restart),
    )
    .toEqual([true, true]);

  // Killed outside Berth: it dies, and Berth starts it again after retry_delay.
  const guardedRow = page.getByTestId(`container-row-${guarded}`);
  docker('plain', 'kill', guarded);
  await expect(guardedRow.getByTestId('state')).toHaveText('Exited');
  await expect(guardedRow.getByTestId('state')).toHaveText('Running', {
    timeout: (RETRY_DELAY_S + 5) * 1000,
  });

  // Stopped by the user through Berth: not restarted.
  const manualRow = page.getByTestId(`container-row-${manual}`);
  await manualRow.getByRole('button', { name: `Stop ${manual}` }).click();
  await expect(page.getByText('Container stopped successfully')).toBeVisible();
  await expect(manualRow.getByTestId('state')).toHaveText('Exited');
  await page.waitForTimeout((RETRY_DELAY_S + 3) * 1000);
  await expect(manualRow.getByTestId('state')).toHaveText('Exited');
  expect(docker('plain', 'inspect', '-f', '{{.State.Running}}', manual)).toBe('false');
});
