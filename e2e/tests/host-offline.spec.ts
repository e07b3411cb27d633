import { apiFor } from '../fixtures/api.js';
import { engineControl } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

test.afterEach(() => engineControl('start', 'plain'));

test('a card whose engine dies shows offline with its reason instead of stale figures, and recovers', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post('/hosts', hostPayload('plain', 'edge'));
  await signIn(page);
  const card = page.getByTestId('host-card-edge');
  await expect(card).toHaveAttribute('data-status', 'online', { timeout: 15_000 });
  await expect(card.getByTestId('metric-CPU')).toBeVisible();

  engineControl('crash', 'plain');
  await expect(card).toHaveAttribute('data-status', 'offline', { timeout: 15_000 });
  await expect(card.getByTestId('host-offline')).toContainText('Offline');
  await expect(card.getByTestId('metric-CPU')).toHaveCount(0);
  await expect(page.getByTestId('kpi-Hosts')).toContainText('0 online · 1 offline');

  engineControl('start', 'plain');
  await expect(card).toHaveAttribute('data-status', 'online', { timeout: 30_000 });
});
