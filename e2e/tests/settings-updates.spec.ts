import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { GlobalSettings, UpgradeNotice } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { expect, signIn, test as base } from '../fixtures/test.js';

const SHOTS = new URL('../.artifacts/settings/', import.meta.url).pathname;

/** A loopback release feed: the test sets what it announces. */
interface Feed {
  url: string;
  announce: (version: string) => void;
}

const test = base.extend<{ feed: Feed }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture list from this pattern
  feed: async ({}, use) => {
    let body = '';
    const server: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/berth/latest.json`;
    await use({
      url,
      announce: (version) => {
        body = JSON.stringify({
          version,
          url: `https://example.com/berth/releases/${version}`,
          notes: `Berth ${version}`,
        });
      },
    });
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
  serverEnv: async ({ feed }, use) => {
    feed.announce('99.0.0');
    await use({ BERTH_RELEASE_FEED_URL: feed.url });
  },
});

test('the update card: a newer release, Dismiss for that version only, a newer one again', async ({
  page,
  readyServer,
  feed,
}) => {
  await signIn(page);
  const card = page.getByTestId('update-card');
  await expect(card).toContainText('Berth 99.0.0 is available.');
  await expect(card.getByRole('link', { name: "See what's new" })).toHaveAttribute(
    'href',
    'https://example.com/berth/releases/99.0.0',
  );
  await page.screenshot({ path: `${SHOTS}update-card-1440x900.png` });
  await card.getByRole('button', { name: 'Dismiss' }).click();
  await expect(card).toHaveCount(0);
  const api = await apiFor(readyServer.url);
  expect(await api.get<GlobalSettings>('/settings')).toMatchObject({
    update_available: true,
    latest_available_version: '99.0.0',
    dismissed_dockmon_update_version: '99.0.0',
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(card).toHaveCount(0);

  // The next daily read (here: the next start) finds a newer version: the card is back.
  feed.announce('99.1.0');
  await readyServer.stop();
  await readyServer.start();
  await page.reload();
  await expect(card).toContainText('Berth 99.1.0 is available.');

  // A feed that answers garbage leaves no card and the screen working.
  feed.announce('not a version');
  await readyServer.stop();
  await readyServer.start();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(card).toHaveCount(0);
});

test('the version in the sidebar opens the release notes of the running version', async ({
  page,
  readyServer: _,
}) => {
  await signIn(page);
  await page.getByRole('button', { name: /release notes$/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(/Berth \d+\.\d+\.\d+ release notes/);
  await expect(dialog.getByRole('listitem').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(dialog).toHaveCount(0);
});

test('no upgrade notice on a first install; after an upgrade it lists what changed, once', async ({
  page,
  readyServer,
}) => {
  await signIn(page);
  const api = await apiFor(readyServer.url);
  await expect
    .poll(async () => (await api.get<UpgradeNotice>('/upgrade-notice')).show_notice)
    .toBe(false);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Simulate an upgrade: this user last saw an older Berth.
  await page.setViewportSize({ width: 1024, height: 768 });
  await readyServer.stop();
  execFileSync('sqlite3', [
    join(readyServer.dataDir, 'berth.db'),
    "UPDATE user_seen_versions SET version = '0.0.1'",
  ]);
  await readyServer.start();
  await page.reload();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(/Welcome to Berth \d+\.\d+\.\d+/);
  await expect(dialog).toContainText('Here is what changed in this version.');
  await expect(dialog.getByRole('listitem').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}upgrade-notice-1024x768.png` });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect
    .poll(async () => (await api.get<UpgradeNotice>('/upgrade-notice')).show_notice)
    .toBe(false);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
