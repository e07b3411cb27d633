import { startBroker } from '../../packages/server/src/test/mosquitto.js';
import { expect, signIn, test as base } from '../fixtures/test.js';

/** Debian's mosquitto on a free loopback port, anonymous, for this test only. */
const test = base.extend<{ broker: { url: string } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture list from this pattern
  broker: async ({}, use) => {
    const broker = await startBroker();
    await use(broker);
    await broker.stop();
  },
});

// Settings → Integrations → MQTT: filled in the browser, connected to a real broker; a wrong
// address shows the broker's reason instead.
test('MQTT settings connect to a broker and show why not when they cannot', async ({
  page,
  readyServer: _,
  broker,
}) => {
  await signIn(page);
  await page.goto('/settings?tab=integrations');
  const section = page.getByTestId('mqtt-settings');
  const status = section.getByTestId('mqtt-status');
  await expect(status).toHaveText('Off');

  await section.getByRole('switch', { name: 'Publish to MQTT' }).check();
  await section.getByLabel('Broker URL').fill('http://not-a-broker');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Broker URL must start with mqtt://')).toBeVisible();

  await section.getByLabel('Broker URL').fill('mqtt://127.0.0.1:1');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(status).toContainText('ECONNREFUSED');

  await section.getByLabel('Broker URL').fill(broker.url);
  await section.getByLabel('Topic prefix').fill('berth-e2e');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(status).toContainText('Connected');
  await page.reload();
  await expect(section.getByLabel('Broker URL')).toHaveValue(broker.url);
  await expect(section.getByLabel('Topic prefix')).toHaveValue('berth-e2e');
  await expect(section.getByRole('switch', { name: 'Allow actions from MQTT' })).not.toBeChecked();
  await expect(status).toContainText('Connected');
});
