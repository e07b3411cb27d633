import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { seedStoppedRule } from '../fixtures/alerts.js';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

const ARTIFACTS = new URL('../.artifacts/phone/', import.meta.url).pathname;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${ARTIFACTS}lists-${name}-390.png` });

/** How far the page or the shell's scrolling main runs past the window's right edge. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main');
    return Math.max(
      document.documentElement.scrollWidth - window.innerWidth,
      main === null ? 0 : main.scrollWidth - main.clientWidth,
    );
  });

const startedAt = (name: string) =>
  docker('plain', 'inspect', '-f', '{{.State.StartedAt}}', name).trim();

test.describe('phone lists at 390 × 844 with touch', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });

  test('containers as cards: the ⋯ menu restarts, Select mode bulk-selects, filters sit in a sheet, the dialog fills the screen', async ({
    page,
    readyServer,
  }) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'pocket'));
    // One long line without spaces: wrapped, it stays inside the log box.
    const web = containers.run(
      'plain',
      'web',
      `echo ${'x'.repeat(400)}; trap 'exit 0' TERM; while :; do sleep 1; done`,
    );
    const worker = containers.run('plain', 'worker');
    const idle = containers.run('plain', 'idle');
    docker('plain', 'stop', idle);
    await signIn(page);
    await page.goto('/containers');
    await page.getByLabel('Search containers').fill(containers.prefix);
    await expect(page.getByTestId('container-count')).toHaveText('3 container(s)', {
      timeout: 15_000,
    });
    const card = (name: string) => page.getByTestId(`container-card-${name}`);
    for (const name of [web, worker, idle])
      await expect(card(name).getByTestId('card-name')).toHaveText(name);
    await expect(card(idle)).toContainText('Exited');
    await expect(card(web)).toContainText('pocket');
    await expect(card(web)).toContainText('CPU');
    await expect(page.locator('table')).toHaveCount(0);
    expect(await overflow(page)).toBe(0);
    await shot(page, 'containers');

    // The ⋯ menu holds the row's actions, with the row's checks: a stopped one cannot restart.
    const before = startedAt(web);
    await card(web)
      .getByRole('button', { name: `Actions for ${web}` })
      .tap();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Start', exact: true })).toHaveAttribute(
      'data-disabled',
      '',
    );
    await shot(page, 'row-menu');
    await menu.getByRole('menuitem', { name: 'Restart', exact: true }).tap();
    await expect.poll(() => startedAt(web), { timeout: 30_000 }).not.toBe(before);
    await card(idle)
      .getByRole('button', { name: `Actions for ${idle}` })
      .tap();
    await expect(page.getByRole('menuitem', { name: 'Restart', exact: true })).toHaveAttribute(
      'data-disabled',
      '',
    );
    await page.keyboard.press('Escape');

    // Select mode: checkboxes on the cards, the bulk bar once something is picked.
    await page.getByRole('button', { name: 'Select', exact: true }).tap();
    await page.getByLabel(`Select ${web}`).tap();
    await page.getByLabel(`Select ${worker}`).tap();
    const bar = page.getByTestId('bulk-bar');
    await expect(bar).toContainText('2 selected');
    await expect(bar.getByRole('button', { name: 'Restart' })).toBeVisible();
    expect(await overflow(page)).toBe(0);
    await shot(page, 'select-mode');
    await page.getByRole('button', { name: 'Done' }).tap();
    await expect(bar).toHaveCount(0);
    await expect(page.getByLabel(`Select ${web}`)).toHaveCount(0);

    // A long press on a card starts Select mode with that card chosen, and opens nothing.
    const webCard = page.getByRole('button', { name: `Open ${web}` });
    const cardBox = await webCard.boundingBox();
    if (cardBox === null) throw new Error('no card');
    const at = {
      pointerType: 'touch',
      isPrimary: true,
      clientX: cardBox.x + 20,
      clientY: cardBox.y + 10,
    };
    await webCard.dispatchEvent('pointerdown', at);
    await page.waitForTimeout(700);
    // The finger lifts over what the card became, and the click that may follow is swallowed.
    const webCardItem = page.getByTestId(`container-card-${web}`);
    await webCardItem.dispatchEvent('pointerup', at);
    await page.getByLabel(`Select ${web}`).dispatchEvent('click');
    await expect(page.getByLabel(`Select ${web}`)).toBeChecked();
    await expect(bar).toContainText('1 selected');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByRole('button', { name: 'Done' }).tap();
    await expect(bar).toHaveCount(0);

    // Filters in a sheet: State Running leaves the two running ones, and stays in the URL.
    await page.getByRole('button', { name: 'Filters' }).tap();
    const sheet = page.getByRole('dialog', { name: 'Filters' });
    await sheet.getByLabel('Running').tap();
    await expect(page).toHaveURL(/state=running/);
    await expect(sheet.getByRole('button', { name: 'Show 2 containers' })).toBeVisible();
    await shot(page, 'filters-sheet');
    await sheet.getByRole('button', { name: 'Show 2 containers' }).tap();
    await expect(sheet).toHaveCount(0);
    await expect(card(idle)).toHaveCount(0);
    await expect(card(web)).toBeVisible();
    await expect(page.getByTestId('filter-count')).toHaveText('1');

    // The container dialog fills the screen; its tabs are a strip that scrolls sideways.
    await card(web)
      .getByRole('button', { name: `Open ${web}` })
      .tap();
    const dialog = page.getByRole('dialog', { name: `${web} (pocket)` });
    await expect(dialog).toBeVisible();
    await expect
      .poll(async () => {
        const box = await dialog.boundingBox();
        return box && [box.x, box.y, box.width, box.height].map(Math.round);
      })
      .toEqual([0, 0, 390, 844]);
    const strip = dialog.getByTestId('tab-strip');
    const scroll = await strip.evaluate((el) => ({
      overflowX: getComputedStyle(el).overflowX,
      wider: el.scrollWidth > el.clientWidth,
    }));
    expect(scroll).toEqual({ overflowX: 'auto', wider: true });
    await shot(page, 'container-dialog');
    const health = dialog.getByRole('tab', { name: 'Health Check' });
    await health.scrollIntoViewIfNeeded();
    await health.tap();
    await expect(health).toHaveAttribute('data-state', 'active');
    expect(await strip.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    const box = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(box).toBe(0);

    // Logs wrap by default on a phone, and the toggle turns it off.
    const logs = dialog.getByRole('tab', { name: 'Logs' });
    await logs.scrollIntoViewIfNeeded();
    await logs.tap();
    const wrap = dialog.getByLabel('Wrap lines');
    await expect(wrap).toBeChecked();
    const lines = dialog.getByTestId('log-lines');
    await expect(lines).toHaveAttribute('data-wrap', 'true');
    await expect(lines).toContainText('xxxxxxxxxx');
    const sideways = () => lines.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(await sideways()).toBe(0);
    await shot(page, 'container-logs');
    await wrap.tap();
    await expect(lines).toHaveAttribute('data-wrap', 'false');
    expect(await sideways()).toBeGreaterThan(0);
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
  });

  test('a long container list draws only the cards in view, and still scrolls and searches', async ({
    page,
    readyServer,
  }) => {
    test.setTimeout(120_000);
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'pocket'));
    const names = containers.createMany('plain', 'many', 150);
    await signIn(page);
    await page.goto('/containers');
    await page.getByLabel('Search containers').fill(`${containers.prefix}-many-`);
    await expect(page.getByTestId('container-count')).toHaveText('150 container(s)', {
      timeout: 15_000,
    });
    const cards = page.locator('li[data-testid^="container-card-"]');
    await expect(cards.first()).toBeVisible();
    expect(await cards.count()).toBeLessThan(40);
    const last = [...names].sort().at(-1) ?? '';
    // Scrolled to the end (again as the measured cards settle the list's height), the last is drawn.
    const end = page.getByTestId(`container-card-${last}`);
    await expect
      .poll(async () => {
        await page.locator('main').evaluate((main) => main.scrollTo({ top: main.scrollHeight }));
        return end.isVisible();
      })
      .toBe(true);
    await expect(end).toBeInViewport();
    expect(await overflow(page)).toBe(0);
    await shot(page, 'containers-many-end');
    await page.getByLabel('Search containers').fill(`${containers.prefix}-many-07`);
    await expect(page.getByTestId('container-count')).toHaveText('10 container(s)');
    await expect(cards).toHaveCount(10);
  });

  test('hosts, events and alerts are card lists with their filters in a sheet', async ({
    page,
    readyServer,
  }) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const api = await apiFor(readyServer.url);
    const { names } = await seedStoppedRule(api, containers, 1);
    await signIn(page);

    await page.goto('/hosts');
    const host = page.getByTestId('host-list-card-edge');
    await expect(host).toContainText('running', { timeout: 15_000 });
    await host.getByRole('button', { name: 'Actions for edge' }).tap();
    await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
    await page.keyboard.press('Escape');
    expect(await overflow(page)).toBe(0);
    await shot(page, 'hosts');
    // Select mode picks hosts for the tag bar instead of opening them.
    await page.getByRole('button', { name: 'Select', exact: true }).tap();
    await host.getByLabel('Select edge').check();
    await expect(page.getByLabel('Tags for selected hosts')).toBeVisible();
    await page.getByRole('button', { name: 'Done' }).tap();
    await expect(page.getByLabel('Tags for selected hosts')).toBeHidden();
    await host.getByRole('button', { name: 'Open edge' }).tap();
    const hostDialog = page.getByRole('dialog', { name: 'Hosts > edge' });
    await expect(hostDialog).toBeVisible();
    await expect.poll(async () => (await hostDialog.boundingBox())?.width.toFixed(0)).toBe('390');
    await shot(page, 'host-dialog');
    await hostDialog.getByRole('tab', { name: 'Containers' }).tap();
    await expect(hostDialog.getByTestId('container-cards')).toBeVisible();
    await shot(page, 'host-dialog-containers');
    await page.keyboard.press('Escape');

    await page.goto('/events');
    await expect(page.getByTestId('event-row').first()).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('table[data-testid="event-log"]')).toHaveCount(0);
    await page.getByRole('button', { name: 'Filters' }).tap();
    await expect(page.getByRole('dialog', { name: 'Filters' })).toBeVisible();
    await shot(page, 'events-filters');
    await page.getByRole('button', { name: 'Done' }).tap();
    expect(await overflow(page)).toBe(0);
    await shot(page, 'events');

    // An alert as a card; its ⋯ menu snoozes it, and the filters sheet finds it by state.
    docker('plain', 'kill', names[0] ?? '');
    await page.goto('/alerts');
    const alert = page.getByTestId('alert-row');
    await expect(alert).toHaveCount(1, { timeout: 15_000 });
    await expect(alert).toContainText(`Stopped - ${names[0] ?? ''} on edge`);
    expect(await overflow(page)).toBe(0);
    await shot(page, 'alerts');
    await alert.getByRole('button', { name: /^Actions for / }).tap();
    await shot(page, 'alert-menu');
    await page.getByRole('menuitem', { name: 'Snooze 15 minutes' }).tap();
    await expect(alert).toHaveAttribute('data-state', 'snoozed');
    await page.getByRole('button', { name: 'Filters' }).tap();
    const sheet = page.getByRole('dialog', { name: 'Filters' });
    await sheet.getByLabel('Open').tap();
    await expect(page).toHaveURL(/state=open/);
    await expect(sheet.getByRole('button', { name: 'Show 0 alerts' })).toBeVisible();
    await sheet.getByLabel('Snoozed').tap();
    await expect(page).toHaveURL(/state=snoozed/);
    await sheet.getByRole('button', { name: 'Show 1 alert' }).tap();
    await expect(alert).toHaveCount(1);
  });
});

test.describe('tablet tables at 900 × 800', () => {
  test.use({ viewport: { width: 900, height: 800 } });

  test('the name column stays pinned on the left while the table scrolls sideways', async ({
    page,
    readyServer,
  }) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'slate'));
    const name = containers.run('plain', 'tab');
    await signIn(page);
    for (const [path, row, column] of [
      ['/containers', `container-row-${name}`, 'name'],
      ['/hosts', 'host-row-slate', 'name'],
    ] as const) {
      await page.goto(path);
      const cells = page.getByTestId(row).locator('td');
      await expect(page.getByTestId(row)).toBeVisible({ timeout: 15_000 });
      const scroller = page.locator('div.overflow-x-auto').filter({ has: page.getByTestId(row) });
      const header = page.locator(`thead th[data-column="${column}"]`);
      const nameCell = cells.nth(
        await header.evaluate((th) => (th as HTMLTableCellElement).cellIndex),
      );
      expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      // The Status column, left of the name, scrolled out of sight; the name stays in the box.
      const status = cells.nth(
        await page
          .locator('thead th[data-column="status"]')
          .evaluate((th) => (th as HTMLTableCellElement).cellIndex),
      );
      const wrapperLeft = (await scroller.boundingBox())?.x ?? 0;
      await expect
        .poll(async () => ((await status.boundingBox())?.x ?? 0) < wrapperLeft - 10)
        .toBe(true);
      expect((await nameCell.boundingBox())?.x ?? 0).toBeGreaterThanOrEqual(wrapperLeft - 1);
      await expect(nameCell).toBeInViewport();
      await page.screenshot({ path: `${ARTIFACTS}tablet${path.replace('/', '-')}-900.png` });
    }
  });
});
