import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

// containers_update travels as deltas (docs/decisions/009). With GET /api/containers refused
// after the first load, only the live channel can move a row.
test.describe('live container deltas', () => {
  test('a container stopped on the engine shows Exited through a delta', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'edge'));
    const name = containers.run('plain', 'delta');
    await signIn(page);
    await page.goto('/containers');
    const row = page.getByTestId(`container-row-${name}`);
    await expect(row).toContainText('Running', { timeout: 15_000 });
    await page.route('**/api/containers*', (route) => route.abort());
    docker('plain', 'stop', '-t', '0', name);
    await expect(row).toContainText('Exited', { timeout: 8000 });
  });

  test('a missed delta is noticed, the full state asked for, and the rows stay right', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'edge'));
    const name = containers.run('plain', 'gap');
    let dropped = 0;
    let resyncs = 0;
    let fullsAfterDrop = 0;
    let seenDeltas = 0;
    await page.routeWebSocket(/\/ws\/?(\?.*)?$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        if (String(message).includes('"containers_resync"')) resyncs++;
        server.send(message);
      });
      server.onMessage((message) => {
        const text = String(message);
        if (text.startsWith('{"type":"containers_update"')) {
          // Lose the third delta on its way, as a flaky link would.
          if (text.includes('"full":false') && dropped === 0 && ++seenDeltas === 3) {
            dropped++;
            return;
          }
          if (dropped > 0 && text.includes('"full":true')) fullsAfterDrop++;
        }
        ws.send(message);
      });
    });
    await signIn(page);
    await page.goto('/containers');
    const row = page.getByTestId(`container-row-${name}`);
    await expect(row).toContainText('Running', { timeout: 15_000 });
    await expect.poll(() => dropped, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => resyncs, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => fullsAfterDrop, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.route('**/api/containers*', (route) => route.abort());
    docker('plain', 'stop', '-t', '0', name);
    await expect(row).toContainText('Exited', { timeout: 8000 });
  });
});
