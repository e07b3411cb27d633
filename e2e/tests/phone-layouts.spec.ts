import { mkdirSync, writeFileSync } from 'node:fs';
import type { Container, Host } from '@berth/contracts';
import type { Page } from '@playwright/test';
import { apiFor } from '../fixtures/api.js';
import { openAlerts } from '../fixtures/alerts.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

/** The phones the app must fit: a small Android and a current iPhone, both with touch. */
const PHONES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
];

/** Every settings tab an admin sees (features/settings/tabs.ts). */
const SETTINGS_TABS = [
  'dashboard',
  'alerts',
  'notifications',
  'updates',
  'integrations',
  'api-keys',
  'security',
  'users',
  'authentication',
  'system',
];

const ARTIFACTS = new URL('../.artifacts/phone/', import.meta.url).pathname;

/**
 * How far the screen runs past the window's right edge, in CSS pixels (0 when it fits):
 * the page itself (`scrollWidth <= innerWidth`), the shell's scrolling `main` (the shell
 * clips the page, so a too-wide screen scrolls sideways in there instead), and every open
 * dialog (its box past either edge, or its content wider than itself).
 */
async function overflowOf(page: Page) {
  return page.evaluate(() => {
    const docEl = document.documentElement;
    const main = document.querySelector('main');
    const dialogs = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].map((d) => {
      const box = d.getBoundingClientRect();
      return Math.max(
        Math.ceil(box.right - window.innerWidth),
        Math.ceil(-box.left),
        d.scrollWidth - d.clientWidth,
      );
    });
    return {
      page: docEl.scrollWidth - window.innerWidth,
      main: main === null ? 0 : main.scrollWidth - main.clientWidth,
      dialog: Math.max(0, ...dialogs),
    };
  });
}

/**
 * The controls under `selector` a finger would miss: visible buttons, links, form controls
 * and menu triggers less than 44 × 44 CSS pixels, each as "label: width×height".
 */
async function smallTargets(page: Page, selector: string) {
  return page.evaluate((within) => {
    const controls = document.querySelectorAll<HTMLElement>(
      `${within} :is(a[href], button, input, select, textarea, [role="button"], [role="tab"])`,
    );
    return [...controls].flatMap((el) => {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden')
        return [];
      if (box.width >= 44 && box.height >= 44) return [];
      const name = el.getAttribute('aria-label') ?? el.textContent.trim().slice(0, 30);
      return [
        `${el.tagName.toLowerCase()} "${name}": ${Math.round(box.width)}×${Math.round(box.height)}`,
      ];
    });
  }, selector);
}

/** Waits for the screen's reads (a moment without requests); the live channel is a socket. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

for (const phone of PHONES) {
  test.describe(`at ${phone.width} × ${phone.height} with touch`, () => {
    test.use({ viewport: phone, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

    test('every route fits the width of the phone', async ({ page, readyServer }) => {
      test.setTimeout(240_000);
      const api = await apiFor(readyServer.url);
      await api.post('/hosts', hostPayload('plain', 'phone-edge', ['prod', 'eu-west']));
      const name = containers.run('plain', 'phone-web');
      const victim = containers.run('plain', 'phone-victim');

      const hosts = await api.get<Host[]>('/hosts');
      const host = hosts.find((h) => h.name === 'phone-edge');
      let container: Container | undefined;
      await expect
        .poll(async () => {
          container = (await api.get<Container[]>('/containers')).find((c) => c.name === name);
          return container !== undefined;
        })
        .toBe(true);
      // One open alert, for the bell's count and the alert list: a watched container stops.
      await expect
        .poll(async () =>
          (await api.get<Container[]>('/containers')).some(
            (c) => c.name === victim && c.state === 'running',
          ),
        )
        .toBe(true);
      await api.post('/alerts/rules', {
        name: 'Phone stopped',
        scope: 'container',
        kind: 'container_stopped',
        severity: 'critical',
        container_selector_json: { include_all: false, include: [victim], tags: [] },
      });
      docker('plain', 'kill', victim);
      await expect.poll(async () => (await openAlerts(api)).length, { timeout: 20_000 }).toBe(1);
      await signIn(page);

      const overflows: Record<string, { page: number; main: number; dialog: number }> = {};
      // Small targets on every screen, written down for a person to read (the shell's and the
      // dashboard's are asserted below; the other screens' lists are their owners' to act on).
      const small: Record<string, string[]> = {};
      mkdirSync(ARTIFACTS, { recursive: true });
      const check = async (route: string) => {
        await settle(page);
        const overflow = await overflowOf(page);
        overflows[route] = overflow;
        small[route] = await smallTargets(page, 'main, [role="dialog"]');
        await page.screenshot({ path: `${ARTIFACTS}${route}-${phone.width}.png` });
        expect.soft(overflow, `${route} runs past a ${phone.width} px window`).toEqual({
          page: 0,
          main: 0,
          dialog: 0,
        });
      };
      const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });

      // The dashboard with its host card drawn, then the navigation drawer open over it.
      await page.goto('/');
      await expect(page.getByTestId('host-card-phone-edge')).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId('alert-bell-count')).toHaveText('1');
      await check('dashboard');
      expect.soft(await smallTargets(page, '[data-testid="phone-top-bar"]')).toEqual([]);
      expect.soft(await smallTargets(page, 'main')).toEqual([]);
      for (const mode of ['Compact', 'Expanded', 'Standard']) {
        await page.getByRole('radio', { name: mode }).tap();
        await expect(
          page.getByTestId(mode === 'Compact' ? 'compact-list' : `host-grid-${mode.toLowerCase()}`),
        ).toBeVisible();
        if (mode !== 'Standard') await check(`dashboard-${mode.toLowerCase()}`);
        expect.soft(await smallTargets(page, 'main'), `${mode} mode`).toEqual([]);
      }
      // Hosts grouped by tag: the groups in their saved order, without drag handles.
      await page.getByLabel('Group by').selectOption('tag');
      await expect(page.getByTestId('tag-group-prod')).toBeVisible();
      await check('dashboard-groups');
      expect.soft(await smallTargets(page, 'main'), 'grouped by tag').toEqual([]);
      await page.getByLabel('Group by').selectOption('none');
      await expect(page.getByTestId('tag-group-prod')).toHaveCount(0);

      // The stats widgets, stacked on a phone.
      await api.patch('/v2/user/preferences', { dashboard: { showStatsWidgets: true } });
      await page.reload();
      // Any recent event: a neighbour's test on the same engine may have the newest ones.
      await expect(
        page.getByTestId('widget-recent-events').getByRole('listitem').first(),
      ).toBeVisible();
      await check('dashboard-widgets');
      expect.soft(await smallTargets(page, 'main'), 'with widgets').toEqual([]);
      await api.patch('/v2/user/preferences', { dashboard: { showStatsWidgets: false } });
      await page.reload();
      await expect(page.getByTestId('widget-recent-events')).toHaveCount(0);

      await page.getByRole('button', { name: 'Open navigation' }).tap();
      await expect(page.getByRole('dialog', { name: 'Navigation' })).toBeVisible();
      await check('nav-drawer');
      expect.soft(await smallTargets(page, '[data-testid="nav-drawer"]')).toEqual([]);
      await page
        .getByRole('dialog', { name: 'Navigation' })
        .getByRole('link', { name: 'Hosts' })
        .tap();
      await expect(page.getByRole('dialog', { name: 'Navigation' })).toHaveCount(0);
      await expect(heading('Hosts')).toBeVisible();

      // A tap on a host card opens the host's panel (the drawer or, on a phone, its details).
      await page.goto('/');
      await page.getByTestId('host-card-phone-edge').getByRole('heading').tap();
      await expect(page.getByRole('dialog', { name: /phone-edge/ })).toBeVisible();
      await check('dashboard-host');

      const screens: [string, string, string][] = [
        ['hosts', '/hosts', 'Hosts'],
        ['containers', '/containers', 'Containers'],
        ['logs', '/logs', 'Container Logs'],
        ['events', '/events', 'Event Log'],
        ['audit', '/audit', 'Audit Log'],
        ['alerts', '/alerts', 'Alerts'],
        ['alert-rules', '/alerts/rules', 'Alert Rules'],
      ];
      for (const [route, path, title] of screens) {
        await page.goto(path);
        await expect(heading(title)).toBeVisible();
        await check(route);
      }
      for (const tab of SETTINGS_TABS) {
        await page.goto(`/settings?tab=${tab}`);
        await expect(heading('Settings')).toBeVisible();
        await expect(page.getByRole('tabpanel')).toBeVisible();
        // The strip scrolls sideways to the chosen tab: it is on screen, not cut off at a side
        // (its underline overlaps the strip's border by a pixel, hence not a ratio of 1).
        await expect(page.getByRole('tab', { selected: true })).toBeInViewport({ ratio: 0.9 });
        await check(`settings-${tab}`);
      }

      // The host dialog (expanded host details) and the container dialog, by their links.
      await page.goto(`/hosts?hostId=${host?.id ?? ''}`);
      await expect(page.getByRole('dialog', { name: 'Hosts > phone-edge' })).toBeVisible();
      await check('host-dialog');
      await page.goto(`/containers?containerId=${container?.host_id ?? ''}:${container?.id ?? ''}`);
      await expect(page.getByRole('dialog', { name: `${name} (phone-edge)` })).toBeVisible();
      await check('container-dialog');

      writeFileSync(
        `${ARTIFACTS}overflow-${phone.width}.json`,
        `${JSON.stringify(overflows, null, 2)}\n`,
      );
      writeFileSync(
        `${ARTIFACTS}small-targets-${phone.width}.json`,
        `${JSON.stringify(small, null, 2)}\n`,
      );
    });
  });
}

test('the shell changes at 768 and 1024 px and keeps the desktop above', async ({
  page,
  readyServer: _,
}) => {
  await page.setViewportSize({ width: 767, height: 900 });
  await signIn(page);
  const topBar = page.getByTestId('phone-top-bar');
  const sidebar = page.getByTestId('sidebar');
  await expect(topBar).toBeVisible();
  await expect(sidebar).toHaveCount(0);
  await expect(page.getByTestId('phone-title')).toHaveText('Dashboard');

  // A tablet: the icon rail, no top bar; its toggle opens the sidebar for now.
  await page.setViewportSize({ width: 768, height: 900 });
  await expect(topBar).toHaveCount(0);
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
  expect((await sidebar.boundingBox())?.width).toBe(64);

  // A desktop: the sidebar as saved (open for a new user), 240 px.
  await page.setViewportSize({ width: 1024, height: 900 });
  await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(240);

  // Back on a phone, the drawer closes by Escape, keeping the screen where it was.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const drawer = page.getByRole('dialog', { name: 'Navigation' });
  await expect(drawer.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await drawer.getByRole('button', { name: 'Close navigation' }).click();
  await expect(drawer).toHaveCount(0);
});
