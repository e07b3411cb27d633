import type { Page } from '@playwright/test';
import { openAlerts, seedStoppedRule } from '../fixtures/alerts.js';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { ADMIN, expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

type Scheme = 'light' | 'dark';

/** Screenshots for a person to look at (kept out of the repository in e2e/.artifacts). */
const shot = (page: Page, scheme: Scheme, name: string) =>
  page.screenshot({
    path: new URL(`../.artifacts/themes/${scheme}-${name}.png`, import.meta.url).pathname,
  });

const theme = (page: Page) =>
  page.evaluate(() => document.documentElement.getAttribute('data-theme'));

/** The page's own background: near white in the light theme, near black in the dark one. */
const pageLightness = (page: Page) =>
  page.evaluate(() => {
    const probe = document.createElement('canvas').getContext('2d');
    if (probe === null) return -1;
    probe.fillStyle = getComputedStyle(document.body).backgroundColor;
    probe.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0] = probe.getImageData(0, 0, 1, 1).data;
    return (r + g + b) / 3;
  });

async function expectTheme(page: Page, scheme: Scheme): Promise<void> {
  await expect.poll(() => theme(page)).toBe(scheme);
  if (scheme === 'light') expect(await pageLightness(page)).toBeGreaterThan(230);
  else expect(await pageLightness(page)).toBeLessThan(30);
}

/** Every CSP violation the page reports (the inline theme script must not be one). */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      seen.push(message.text());
  });
  return seen;
}

test('every main screen in the light and the dark theme, following the system setting', async ({
  page,
  readyServer,
}) => {
  test.setTimeout(240_000);
  const violations = cspViolations(page);
  const api = await apiFor(readyServer.url);
  const { host, names } = await seedStoppedRule(api, containers, 2);
  docker('plain', 'kill', names[0] ?? '');
  await expect.poll(async () => (await openAlerts(api)).length, { timeout: 15_000 }).toBe(1);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/login');
    await expect(page.getByLabel('Username')).toBeVisible();
    await expectTheme(page, scheme);
    await shot(page, scheme, 'login');
  }

  await signIn(page);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/');
    const card = page.getByTestId('host-card-edge');
    await expect(card.getByTestId('metric-CPU')).toBeVisible({ timeout: 20_000 });
    await expectTheme(page, scheme);
    await shot(page, scheme, 'dashboard');

    await page.goto('/containers');
    const running = names[1] ?? '';
    const link = page.getByRole('button', { name: running, exact: true });
    await expect(link).toBeVisible({ timeout: 15_000 });
    await shot(page, scheme, 'containers');
    await link.click();
    const dialog = page.getByRole('dialog', { name: `${running} (edge)` });
    await expect(dialog.getByTestId('detail-state')).toHaveText('Running');
    await page.waitForTimeout(1500); // a few chart points
    await shot(page, scheme, 'container-dialog');
    await dialog.getByRole('tab', { name: 'Logs' }).click();
    await expect(dialog.getByTestId('log-lines')).toBeVisible();
    await shot(page, scheme, 'container-logs');
    await page.keyboard.press('Escape');

    await page.goto('/hosts');
    await expect(page.getByTestId('host-row-edge')).toBeVisible();
    await shot(page, scheme, 'hosts');
    await page.goto(`/hosts?hostId=${host.id}`);
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.waitForTimeout(1500);
    await shot(page, scheme, 'host-dialog');

    await page.goto('/events');
    await expect(page.getByRole('heading', { name: 'Event Log' })).toBeVisible();
    await expect(page.getByText(names[0] ?? '').first()).toBeVisible({ timeout: 15_000 });
    await shot(page, scheme, 'events');

    await page.goto('/alerts');
    await expect(page.getByTestId('alert-row')).toHaveCount(1);
    await shot(page, scheme, 'alerts');

    await page.goto('/audit');
    await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
    await shot(page, scheme, 'audit');

    for (const tab of ['dashboard', 'notifications', 'updates', 'security', 'users', 'system']) {
      await page.goto(`/settings?tab=${tab}`);
      await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
      await page.waitForTimeout(500); // the tab's lazily loaded screen
      await shot(page, scheme, `settings-${tab}`);
    }

    await page.getByRole('button', { name: ADMIN.username }).click();
    await expect(page.getByRole('menuitemradio', { name: 'System' })).toBeChecked();
    await shot(page, scheme, 'account-menu');
    await page.keyboard.press('Escape');
  }

  // A phone in daylight, the reason for the light theme.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [route, name, text] of [
    ['/', 'dashboard', 'edge'],
    ['/containers', 'containers', names[1] ?? ''],
    ['/alerts', 'alerts', names[0] ?? ''],
  ] as const) {
    await page.goto(route);
    await expect(page.getByText(text).first()).toBeVisible({ timeout: 15_000 });
    await expectTheme(page, 'light');
    await shot(page, 'light', `phone-${name}`);
  }
  expect(violations).toEqual([]);
});

test('the account menu switch overrides the system setting, holds across a reload and applies before the first paint', async ({
  page,
  readyServer: _,
}) => {
  const violations = cspViolations(page);
  // Records the theme the moment <body> is parsed: before anything of the page can paint.
  await page.addInitScript(() => {
    new MutationObserver((_changes, observer) => {
      if (document.querySelector('body') === null) return;
      observer.disconnect();
      sessionStorage.setItem('theme-at-body', document.documentElement.dataset.theme ?? 'none');
    }).observe(document, { childList: true, subtree: true });
  });
  const atBody = () => page.evaluate(() => sessionStorage.getItem('theme-at-body'));

  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page);
  await expectTheme(page, 'dark');
  const menu = page.getByRole('button', { name: ADMIN.username });
  await menu.click();
  await page.getByRole('menuitemradio', { name: 'Light' }).click();
  await expect(page.getByRole('menuitemradio', { name: 'Light' })).toBeChecked();
  await expectTheme(page, 'light');
  await page.keyboard.press('Escape');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(await atBody()).toBe('light');
  await expectTheme(page, 'light');
  await page.goto('/login');
  expect(await atBody()).toBe('light');

  // Dark chosen on a light system: the choice wins.
  await page.goto('/');
  await page.emulateMedia({ colorScheme: 'light' });
  await menu.click();
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expectTheme(page, 'dark');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(await atBody()).toBe('dark');
  await expectTheme(page, 'dark');

  // Back to System: it follows the system setting, also when that changes.
  await menu.click();
  await page.getByRole('menuitemradio', { name: 'System' }).click();
  await expectTheme(page, 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectTheme(page, 'dark');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(await atBody()).toBe('dark');
  expect(violations).toEqual([]);
});
