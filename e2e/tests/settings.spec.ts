import type { GlobalSettings, Preferences } from '@berth/contracts';
import type { Page } from '@playwright/test';
import { apiFor } from '../fixtures/api.js';
import { expect, signIn, test } from '../fixtures/test.js';

const SHOTS = new URL('../.artifacts/settings/', import.meta.url).pathname;

/** Goes to the dashboard through the sidebar: a client-side navigation, no reload. */
async function toDashboard(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}
async function toSettings(page: Page, tab: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await page.getByRole('tab', { name: tab }).click();
}

test.describe('settings screen', () => {
  test('the tabs in order, the tab in the URL, empty states for the tabs still to come', async ({
    page,
    readyServer: _,
  }) => {
    await signIn(page);
    await page.goto('/settings?tab=system');
    await expect(page.getByRole('tab')).toHaveText([
      'Dashboard',
      'Alerts',
      'Notifications',
      'Container Updates',
      'Integrations',
      'API Keys',
      'Security',
      'Users',
      'Authentication',
      'System',
    ]);
    await expect(page.getByRole('tab', { name: 'System' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByLabel('Polling interval')).toBeVisible();

    await page.getByRole('tab', { name: 'Notifications' }).click();
    await expect(page).toHaveURL(/\/settings\?tab=notifications$/);
    // Until its feature adds tabs/notifications.tsx, a tab shows its empty state.
    await expect(page.getByRole('tabpanel')).not.toBeEmpty();
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Notifications' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    // Arrow keys move between tabs; the URL follows.
    await page.getByRole('tab', { name: 'Notifications' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(/tab=updates$/);
    await expect(page.getByRole('tab', { name: 'Container Updates' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    // One key at a time: each lazily loaded tab may re-render before the next key arrives.
    await page.getByRole('tab', { name: 'Container Updates' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page).toHaveURL(/tab=notifications$/);
    await page.getByRole('tab', { name: 'Notifications' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page).toHaveURL(/tab=alerts$/);
    await expect(page.getByRole('tabpanel')).not.toBeEmpty();

    await page.goto('/settings?tab=nonsense');
    await expect(page.getByRole('tab', { name: 'Dashboard' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  test('each Dashboard switch is saved and changes the dashboard at once', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/user/view-mode', { view_mode: 'expanded' });
    // Hosts that never answer: their cards still show, and one sits below the fold.
    for (const n of [1, 2, 3, 4])
      await api.post('/hosts', { name: `far-${n}`, url: `tcp://127.0.0.1:${n}`, tags: [] });
    await page.setViewportSize({ width: 1440, height: 600 });
    await signIn(page);
    const prefs = () => api.get<Preferences>('/v2/user/preferences');

    // Defaults: KPI bar on, widgets off, simplified workflow on, optimized loading on.
    await expect(page.getByTestId('kpi-Hosts')).toBeVisible();
    await expect(page.locator('[data-testid^="widget-"]')).toHaveCount(0);
    const lowest = page.getByTestId('host-card-far-4');
    await expect(lowest).toHaveAttribute('data-sparklines', 'paused');
    await expect(page.getByTestId('host-card-far-1')).toHaveAttribute('data-sparklines', 'live');

    await toSettings(page, 'Dashboard');
    const kpi = page.getByRole('switch', { name: 'Show KPI bar' });
    const widgets = page.getByRole('switch', { name: 'Show stats widgets' });
    const simplified = page.getByRole('switch', { name: 'Simplified workflow' });
    const optimized = page.getByRole('switch', { name: 'Optimized dashboard loading' });
    await expect(kpi).toBeChecked();
    await expect(widgets).not.toBeChecked();
    await expect(simplified).toBeChecked();
    await expect(optimized).toBeChecked();

    // KPI bar: off.
    await kpi.click();
    await expect.poll(async () => (await prefs()).dashboard.showKpiBar).toBe(false);
    await toDashboard(page);
    await expect(page.getByTestId('kpi-Hosts')).toHaveCount(0);

    // Stats widgets: on (toggled with the keyboard).
    await toSettings(page, 'Dashboard');
    await widgets.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await prefs()).dashboard.showStatsWidgets).toBe(true);
    await toDashboard(page);
    await expect(page.locator('[data-testid^="widget-"]').first()).toBeVisible();

    // Simplified workflow: on opens the full host details, off the drawer.
    await page.getByTestId('host-card-far-1').getByRole('heading', { name: 'far-1' }).click();
    await expect(page.getByTestId('host-modal')).toBeVisible();
    await page.keyboard.press('Escape');
    await toSettings(page, 'Dashboard');
    await simplified.click();
    await expect.poll(async () => (await prefs()).simplified_workflow).toBe(false);
    await toDashboard(page);
    await page.getByTestId('host-card-far-1').getByRole('heading', { name: 'far-1' }).click();
    await expect(page.getByTestId('host-drawer')).toBeVisible();
    await expect(page.getByTestId('host-modal')).toHaveCount(0);
    await page.keyboard.press('Escape');

    // Optimized loading: off keeps the card below the fold live.
    await toSettings(page, 'Dashboard');
    await optimized.click();
    await expect.poll(async () => (await prefs()).dashboard.optimizedLoading).toBe(false);
    await toDashboard(page);
    await expect(page.getByTestId('host-card-far-4')).toHaveAttribute('data-sparklines', 'live');

    // All four survive a reload.
    await page.goto('/settings?tab=dashboard');
    await expect(kpi).not.toBeChecked();
    await expect(widgets).toBeChecked();
    await expect(simplified).not.toBeChecked();
    await expect(optimized).not.toBeChecked();
  });

  test('System fields save on blur, survive a reload, and out-of-bounds values revert', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    const settings = () => api.get<GlobalSettings>('/settings');
    await signIn(page);
    await page.goto('/settings?tab=system');

    const fields: [string, keyof GlobalSettings, string, number][] = [
      ['Polling interval', 'polling_interval', '1–600 seconds', 5],
      ['Connection timeout', 'connection_timeout', '5–120 seconds', 20],
      ['Health check timeout', 'health_check_timeout_seconds', '10–600 seconds', 45],
      ['Max retries', 'max_retries', '0–10 attempts', 7],
      ['Retry delay', 'retry_delay', '5–300 seconds', 60],
      ['Event retention', 'event_retention_days', '0–365 days (0 = keep forever)', 14],
      ['Alert retention', 'alert_retention_days', '0–730 days (0 = keep forever)', 0],
      ['Unused tag retention', 'unused_tag_retention_days', '0–365 days (0 = keep forever)', 9],
    ];
    for (const [label, key, bounds, value] of fields) {
      const input = page.getByLabel(label, { exact: true });
      await expect(page.getByTestId(`setting-${key}-bounds`)).toHaveText(bounds);
      await input.fill(String(value));
      // Nothing is saved while typing; Tab (blur) saves.
      expect((await settings())[key]).not.toBe(value);
      await input.press('Tab');
      await expect.poll(async () => (await settings())[key]).toBe(value);
    }

    // The switch saves on change (Space on the focused switch).
    const autoRestart = page.getByRole('switch', { name: 'Default auto-restart' });
    await autoRestart.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await settings()).default_auto_restart).toBe(true);

    await page.reload();
    for (const [label, , , value] of fields)
      await expect(page.getByLabel(label, { exact: true })).toHaveValue(String(value));
    await expect(autoRestart).toBeChecked();

    // Out of bounds: the spec's text, the value back, nothing saved.
    const timeout = page.getByLabel('Health check timeout', { exact: true });
    await timeout.fill('5');
    await timeout.press('Tab');
    await expect(page.getByText('Timeout must be between 10 and 600 seconds')).toBeVisible();
    await expect(timeout).toHaveValue('45');
    await timeout.fill('601');
    await timeout.press('Enter');
    await expect(timeout).toHaveValue('45');

    const polling = page.getByLabel('Polling interval', { exact: true });
    await polling.fill('0');
    await polling.press('Tab');
    await expect(page.getByText('Failed to update polling interval')).toBeVisible();
    await expect(page.getByText('Must be between 1 and 600')).toBeVisible();
    await expect(polling).toHaveValue('5');
    const retention = page.getByLabel('Alert retention', { exact: true });
    await retention.fill('731');
    await retention.press('Tab');
    await expect(retention).toHaveValue('0');
    expect(await settings()).toMatchObject({
      health_check_timeout_seconds: 45,
      polling_interval: 5,
      alert_retention_days: 0,
    });
  });

  test('a failed save shows the toast and puts the previous value back', async ({
    page,
    readyServer: _,
  }) => {
    await signIn(page);
    await page.goto('/settings?tab=system');
    const retries = page.getByLabel('Max retries', { exact: true });
    await expect(retries).toHaveValue('3');
    await page.route('**/api/settings', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: '{"detail":"Disk full"}',
          })
        : route.fallback(),
    );
    await retries.fill('4');
    await retries.press('Tab');
    await expect(page.getByText('Failed to update max retries')).toBeVisible();
    await expect(retries).toHaveValue('3');
    const autoRestart = page.getByRole('switch', { name: 'Default auto-restart' });
    await autoRestart.click();
    await expect(page.getByText('Failed to update default auto-restart')).toBeVisible();
    await expect(autoRestart).not.toBeChecked();
    // The rest of the screen still works once the server answers again.
    await page.unroute('**/api/settings');
    await retries.fill('4');
    await retries.press('Tab');
    await page.reload();
    await expect(page.getByLabel('Max retries', { exact: true })).toHaveValue('4');
  });

  test('screens of every tab at 1440×900 and 1024×768', async ({ page, readyServer: _ }) => {
    await signIn(page);
    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const tab of ['dashboard', 'alerts', 'notifications', 'updates', 'system']) {
        await page.goto(`/settings?tab=${tab}`);
        const panel = page.getByRole('tabpanel');
        await expect(panel.locator('section, .border-dashed').first()).toBeVisible();
        await expect(panel.locator('[aria-busy="true"]')).toHaveCount(0);
        await page.screenshot({ path: `${SHOTS}${tab}-${width}x${height}.png`, fullPage: true });
      }
    }
  });
});

test.describe('timezone offset', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });

  test('after sign-in the browser offset replaces a different stored one', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    expect((await api.get<GlobalSettings>('/settings')).timezone_offset).toBe(0);
    await signIn(page);
    await expect
      .poll(async () => (await api.get<GlobalSettings>('/settings')).timezone_offset)
      .toBe(330);
  });
});
