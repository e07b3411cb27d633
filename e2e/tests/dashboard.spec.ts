import type { Container, Host, Preferences } from '@berth/contracts';
import { openAlerts, seedStoppedRule } from '../fixtures/alerts.js';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { keyboardDrag } from '../fixtures/drag.js';
import { hostPayload } from '../fixtures/rig.js';
import { recordTextsFromLoad } from '../fixtures/seen-texts.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

test.describe('dashboard', () => {
  test('empty state, KPI bar with real zero counts, and the view mode saved through its call', async ({
    page,
    readyServer,
  }) => {
    await signIn(page);
    await expect(page.getByText('No hosts configured. Add a host to get started.')).toBeVisible();
    await expect(page.getByTestId('kpi-Hosts')).toContainText('0 online · 0 offline');
    await expect(page.getByTestId('kpi-Alerts open')).toContainText('All clear');
    await expect(page.getByTestId('kpi-Updates')).toContainText('Up to date');
    await expect(page.getByRole('radio', { name: 'Standard' })).toBeChecked();

    await page.getByRole('radio', { name: 'Expanded' }).click();
    const api = await apiFor(readyServer.url);
    await expect
      .poll(async () => (await api.get<{ view_mode: string }>('/user/view-mode')).view_mode)
      .toBe('expanded');
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Expanded' })).toBeChecked();
  });

  test('the KPI tiles are drawn with their counts: an open alert is in the first render', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    const { names } = await seedStoppedRule(api, containers, 1);
    docker('plain', 'kill', names[0] ?? '');
    await expect.poll(async () => (await openAlerts(api)).length, { timeout: 15_000 }).toBe(1);
    await signIn(page);
    const tile = '[data-testid="kpi-Alerts open"]';
    const seen = await recordTextsFromLoad(page, tile);
    await page.reload();
    await expect(page.locator(tile)).toContainText('Requires attention');
    // Read at boot with the screen's other first reads, the count is never drawn as 0 first.
    expect(await seen()).toEqual(['Alerts open1Requires attention']);
  });

  test("a narrow window's KPI tiles and standard cards show their figures whole", async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'edge'));
    await page.setViewportSize({ width: 1140, height: 900 });
    await signIn(page);
    const card = page.getByTestId('host-card-edge');
    await expect(card.getByTestId('metric-CPU')).not.toHaveText('—', { timeout: 15_000 });
    const cut = await card
      .locator('[data-testid^="metric-"]')
      .evaluateAll((values) => values.filter((v) => v.scrollWidth > v.clientWidth).length);
    expect(cut).toBe(0);
    // Counts stay whole: one that does not fit goes to the next line, never half of it.
    const brokenCounts = await card
      .getByTestId('card-counts')
      .locator(':scope > span')
      .evaluateAll((counts) => counts.filter((c) => c.getClientRects().length > 1).length);
    expect(brokenCounts).toBe(0);
    // A KPI subtitle too long for its tile wraps between its parts instead of being cut.
    const subtitle = page.getByTestId('kpi-Containers').getByTestId('kpi-subtitle');
    await expect(subtitle).toHaveText(/^\d+ running · \d+ stopped$/);
    const partsBroken = await subtitle.evaluate(
      (el) =>
        [...el.querySelectorAll('span > span')].filter((p) => p.getClientRects().length > 1).length,
    );
    expect(partsBroken).toBe(0);
    // No subtitle, of this tile or another, is wider than its tile.
    const cutSubtitles = await page
      .getByTestId('kpi-subtitle')
      .evaluateAll((all) => all.filter((el) => el.scrollWidth > el.clientWidth).length);
    expect(cutSubtitles).toBe(0);
  });

  test('cards show live containers; a container stopped from its card and one changed with the CLI', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/user/view-mode', { view_mode: 'expanded' });
    const host = await api.post<Host>(
      '/hosts',
      hostPayload('plain', 'edge', ['prod', 'eu', 'web', 'db']),
    );
    const idle = containers.run('plain', 'idle');
    containers.run('plain', 'busy', 'yes > /dev/null');

    await signIn(page);
    const card = page.getByTestId('host-card-edge');
    await expect(card).toHaveAttribute('data-status', 'online', { timeout: 15_000 });
    await expect(card.getByText('+1')).toBeVisible(); // 3 tags shown of 4
    const row = card.getByTestId(`card-container-${idle}`);
    await expect(row).toHaveAttribute('data-state', 'running');
    await expect(card.getByTestId('metric-CPU')).not.toHaveText('—', { timeout: 10_000 });
    const all = await api.get<Container[]>('/containers');
    await expect(page.getByTestId('kpi-Containers')).toContainText(String(all.length));

    // The menu offers Stop and Restart on a running container, and acts on the engine.
    await row.getByRole('button', { name: `Actions for ${idle}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Restart' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Start', exact: true })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Stop' }).click();
    await expect(page.getByText('Container stopped successfully')).toBeVisible();
    await expect(page.getByText('Action: Stop')).toBeVisible();
    await expect(row).toHaveAttribute('data-state', 'exited');
    expect(docker('plain', 'inspect', '-f', '{{.State.Running}}', idle)).toBe('false');

    // Started with the docker CLI: the card follows from the live channel alone.
    docker('plain', 'start', idle);
    await expect(row).toHaveAttribute('data-state', 'running', { timeout: 2000 });

    await row.getByRole('button', { name: idle, exact: true }).click();
    const info = page.getByRole('dialog', { name: idle });
    await expect(info.getByText('berth-test/busybox:1.0')).toBeVisible();
    await page.keyboard.press('Escape');

    // The per-host sort: State is the expanded card's default; the choice is saved per host.
    await card.getByRole('button', { name: 'Sort containers' }).click();
    await expect(page.getByRole('menuitem', { name: 'Start Time newest first' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await page.getByRole('menuitem', { name: 'Name A-Z' }).click();
    await expect
      .poll(async () => (await api.get<Preferences>('/v2/user/preferences')).hostContainerSorts)
      .toEqual({ [host.id]: 'name' });
    const names = await card
      .locator('[data-testid^="card-container-"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid') ?? ''));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  test('stats widgets: texts, and a dragged widget is in the same place after reload', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.patch('/v2/user/preferences', {
      dashboard: { showStatsWidgets: true, showKpiBar: false },
    });
    await api.post('/hosts', hostPayload('plain', 'edge'));
    await signIn(page);
    await expect(page.getByRole('region', { name: 'Key figures' })).toHaveCount(0);
    await expect(page.getByTestId('widget-alert-summary')).toContainText('No active alerts');
    await expect(page.getByTestId('widget-updates')).toContainText('All containers up to date');
    await expect(page.getByTestId('widget-recent-events')).toContainText('edge');
    await expect(page.getByTestId('widget-host-stats')).toContainText('Online');

    const widget = page.getByTestId('widget-host-stats');
    const before = await widget.boundingBox();
    const handle = widget.locator('.widget-drag-handle');
    const start = await handle.boundingBox();
    if (before === null || start === null) throw new Error('widget not laid out');
    await page.mouse.move(start.x + 20, start.y + 10);
    await page.mouse.down();
    // Four columns to the right, onto the updates widget, which moves down to make room.
    for (let step = 1; step <= 10; step++)
      await page.mouse.move(start.x + 20 + step * 38, start.y + 10);
    await page.mouse.up();
    await expect
      .poll(async () => {
        const prefs = await api.get<Preferences>('/v2/user/preferences');
        return prefs.dashboard_layout_v2?.widgets.find((w) => w.id === 'host-stats')?.x ?? 0;
      })
      .toBeGreaterThanOrEqual(3);

    await page.reload();
    await expect(page.getByTestId('widget-host-stats')).toBeVisible();
    const after = await page.getByTestId('widget-host-stats').boundingBox();
    const updates = await page.getByTestId('widget-updates').boundingBox();
    expect(after?.x ?? 0).toBeGreaterThan(before.x + 250);
    expect(updates?.y ?? 0).toBeGreaterThan(before.y + 200);
  });

  test('group by tag: groups with counts, collapsed and reordered by keyboard, all saved', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'edge', ['prod']));
    await api.post('/hosts', hostPayload('tls', 'vault', ['staging']));
    await api.post('/hosts', { name: 'loose', url: 'unix:///run/berth-rig-plain/docker.sock' });
    await signIn(page);
    await page.getByLabel('Group by').selectOption('tag');

    const groups = page.locator('[data-testid^="tag-group-"]');
    await expect(groups).toHaveCount(3);
    await expect(groups.nth(0)).toHaveAttribute('data-testid', 'tag-group-prod');
    await expect(groups.nth(2)).toHaveAttribute('data-testid', 'tag-group-Untagged');
    await expect(page.getByTestId('tag-group-staging').getByTestId('group-counts')).toHaveText(
      '1 host · 1 online · 0 offline · 0 error',
      { timeout: 15_000 },
    );

    await page
      .getByTestId('tag-group-prod')
      .getByRole('button', { name: 'prod', exact: true })
      .click();
    await expect(page.getByTestId('host-card-edge')).toHaveCount(0);

    // Keyboard drag: space lifts, each arrow moves 25 px, space drops.
    // Far enough up that the group above is the closest drop target whatever the card heights.
    await keyboardDrag(
      page,
      page.getByRole('button', { name: 'Reorder group staging' }),
      'ArrowUp',
      25,
    );
    await expect(groups.nth(0)).toHaveAttribute('data-testid', 'tag-group-staging');

    await expect
      .poll(
        async () => (await api.get<Preferences>('/v2/user/preferences')).dashboard.tagGroupOrder,
      )
      .toEqual(['staging', 'prod', 'Untagged']);
    await page.reload();
    await expect(groups.nth(0)).toHaveAttribute('data-testid', 'tag-group-staging');
    await expect(page.getByTestId('host-card-edge')).toHaveCount(0);
    await expect(page.getByTestId('host-card-vault')).toBeVisible();
  });

  test('optimized loading: an off-screen card stops updating its figures until scrolled into view', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    const top = await api.post<Host>('/hosts', hostPayload('tls', 'top'));
    const below = await api.post<Host>('/hosts', hostPayload('plain', 'below'));
    containers.run('plain', 'spin', 'yes > /dev/null');
    await api.post('/user/view-mode', { view_mode: 'expanded' });
    // A saved layout stacks the two cards, so the second starts below a short window.
    await api.patch('/v2/user/preferences', {
      dashboard: {
        hostCardLayout: [
          { i: top.id, x: 0, y: 0, w: 4, h: 12 },
          { i: below.id, x: 0, y: 12, w: 4, h: 12 },
        ],
      },
    });
    await page.setViewportSize({ width: 1440, height: 500 });
    await signIn(page);
    const cpu = page.getByTestId('host-card-below').getByTestId('metric-CPU');
    await expect(cpu).toHaveCount(1, { timeout: 15_000 });

    const samples = new Set<string>();
    for (let i = 0; i < 6; i++) {
      samples.add((await cpu.textContent()) ?? '');
      await page.waitForTimeout(1000);
    }
    expect(samples.size).toBe(1);

    await page.getByTestId('host-card-below').scrollIntoViewIfNeeded();
    const first = await cpu.textContent();
    await expect.poll(() => cpu.textContent(), { timeout: 10_000 }).not.toBe(first);
  });

  test('cards below the first screen are drawn after it, without scrolling to them', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    // Twelve hosts that never answer, four to a row in standard mode: three rows of cards,
    // and a short window shows the first only.
    for (let n = 1; n <= 12; n++)
      await api.post('/hosts', { name: `row-${n}`, url: `tcp://127.0.0.1:${n}`, tags: [] });
    await page.setViewportSize({ width: 1440, height: 400 });
    await signIn(page);
    const lowest = page.getByTestId('host-card-row-12');
    await expect(lowest).toHaveAttribute('data-status', /offline|error/, { timeout: 15_000 });
    await expect(lowest.getByRole('heading', { name: 'row-12' })).toBeAttached();
    await expect(page.locator('[data-testid^="host-card-"]')).toHaveCount(12);
    await expect(page.getByTestId('host-frame')).toHaveCount(0);
    // It is drawn although it is off screen.
    const box = await lowest.boundingBox();
    expect(box?.y ?? 0).toBeGreaterThan(400);
  });
});
