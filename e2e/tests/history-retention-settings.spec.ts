import type { GlobalSettings } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { expect, signIn, test } from '../fixtures/test.js';

const SHOTS = new URL('../.artifacts/history-retention/', import.meta.url).pathname;

const TIERS: [string, keyof GlobalSettings, string, number, number][] = [
  // label, key, bounds shown, default, a new value
  ['10-second history', 'history_10s_retention_hours', '1–168 hours', 24, 48],
  ['1-minute history', 'history_1m_retention_hours', '1–2160 hours', 168, 336],
  ['15-minute history', 'history_15m_retention_hours', '1–17520 hours', 2160, 4380],
];

test.describe('metrics history retention in Settings → System', () => {
  test('each tier saves on blur, survives a reload; out of bounds is refused and reverts', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    const settings = () => api.get<GlobalSettings>('/settings');
    await signIn(page);
    await page.goto('/settings?tab=system');
    await expect(page.getByRole('heading', { name: 'Metrics history' })).toBeVisible();

    for (const [label, key, bounds, before, after] of TIERS) {
      const input = page.getByLabel(label, { exact: true });
      await expect(input).toHaveValue(String(before));
      await expect(page.getByTestId(`setting-${key}-bounds`)).toHaveText(bounds);
      await input.fill(String(after));
      await input.press('Tab');
      await expect.poll(async () => (await settings())[key]).toBe(after);
    }
    await page.reload();
    for (const [label, , , , after] of TIERS)
      await expect(page.getByLabel(label, { exact: true })).toHaveValue(String(after));
    await page.screenshot({ path: `${SHOTS}system-history-1440.png`, fullPage: true });

    // Out of bounds: refused in the browser with the bounds, the saved value back.
    const raw = page.getByLabel('10-second history', { exact: true });
    await raw.fill('0');
    await raw.press('Tab');
    await expect(page.getByText('Failed to update 10-second history')).toBeVisible();
    await expect(page.getByText('Must be between 1 and 168')).toBeVisible();
    await expect(raw).toHaveValue('48');
    expect((await settings()).history_10s_retention_hours).toBe(48);

    // The API refuses the same with a 400 naming the field.
    await expect(api.put('/settings', { history_15m_retention_hours: 17_521 })).rejects.toThrow(
      'PUT /settings: 400 {"detail":"15-minute history must be between 1 and 17520"}',
    );

    // A coarser tier kept shorter than the finer one: refused with the reason, the value back.
    const minute = page.getByLabel('1-minute history', { exact: true });
    await minute.fill('24');
    await minute.press('Tab');
    await expect(page.getByText('Failed to update 1-minute history')).toBeVisible();
    await expect(
      page.getByText("1-minute history must be at least the 10-second history's 48 hours"),
    ).toBeVisible();
    await expect(minute).toHaveValue('336');
  });

  test('the rows fit a phone', async ({ page, readyServer: _ }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    await page.goto('/settings?tab=system');
    for (const [label] of TIERS) {
      const input = page.getByLabel(label, { exact: true });
      await input.scrollIntoViewIfNeeded();
      await expect(input).toBeInViewport();
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}system-history-390.png`, fullPage: true });
  });
});
