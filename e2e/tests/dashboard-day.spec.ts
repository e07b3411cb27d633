import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Host, Preferences } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const shot = (page: import('@playwright/test').Page, name: string) =>
  page.screenshot({ path: new URL(`../.artifacts/${name}.png`, import.meta.url).pathname });

/**
 * A fresh server has no 15 min points for a quarter hour or more (they are rolled up from the
 * 1 min tier as each quarter ends), so a day of them is written straight into the server's
 * database while it is stopped: 96 points ending at the current quarter, CPU 25 %, memory 50 %,
 * network 1,000 B/s in and out. Stored scaled as the history stores them (hundredths).
 */
function seedDay(dataDir: string, hostId: string): void {
  const now = Math.floor(Date.now() / 1000 / 900) * 900;
  const statements = [
    `INSERT INTO metric_series (host_id, name, container_id) VALUES ('${hostId}', '', NULL)
       ON CONFLICT (host_id, name) DO NOTHING`,
    `WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 95)
     INSERT OR IGNORE INTO metric_points
       (tier, series_id, t, n, cpu, cpu_lo, cpu_hi, mem_pct, mem_pct_lo, mem_pct_hi, rx, tx)
     SELECT 2, (SELECT id FROM metric_series WHERE host_id = '${hostId}' AND name = ''),
       ${now} - i * 900, 90, 2500, 1000, 4000, 5000, 4900, 5100, 1000, 1000 FROM k`,
  ];
  execFileSync('sqlite3', [join(dataDir, 'berth.db'), statements.join(';\n')]);
}

test('a host card shows the last 24 h from history instead of live sparklines, and keeps the choice', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  const host = await api.post<Host>('/hosts', hostPayload('plain', 'edge'));
  await readyServer.stop();
  seedDay(readyServer.dataDir, host.id);
  await readyServer.start();

  await signIn(page);
  const card = page.getByTestId('host-card-edge');
  await expect(card).toHaveAttribute('data-sparklines', /live|paused/);
  await expect(card.getByRole('img', { name: 'CPU history' })).toBeVisible();

  // The card's menu switches it; the day is asked for with step=900 (96 points a host).
  const asked = page.waitForRequest(
    (r) => r.url().includes(`/api/hosts/${host.id}/metrics?`) && r.url().includes('step=900'),
  );
  await card.getByRole('button', { name: 'Host menu for edge' }).click();
  await page.getByRole('menuitem', { name: 'Show Last 24 Hours' }).click();
  const url = new URL((await asked).url());
  const from = Date.parse(url.searchParams.get('from') ?? '');
  expect(Math.abs(Date.now() - 24 * 3600_000 - from)).toBeLessThan(60_000);

  await expect(card).toHaveAttribute('data-sparklines', 'day');
  const day = card.getByTestId('card-day');
  await expect(day).toContainText('Last 24 h, averages');
  await expect(day.getByRole('img', { name: 'CPU over 24 h' })).toHaveAttribute(
    'data-points',
    '96',
  );
  await expect(day.getByRole('img', { name: 'Memory over 24 h' })).toHaveAttribute(
    'data-points',
    '96',
  );
  await expect(day.getByTestId('day-CPU')).toHaveText('25.0%');
  await expect(day.getByTestId('day-Mem')).toHaveText('50.0%');
  await expect(card.getByRole('img', { name: 'CPU history' })).toHaveCount(0);
  await shot(page, 'dashboard-day-1440');

  // Saved in the user's preferences: a reload keeps it.
  await expect
    .poll(async () => (await api.get<Preferences>('/v2/user/preferences')).dashboard.historyCards)
    .toEqual([host.id]);
  await page.reload();
  await expect(card.getByTestId('card-day')).toBeVisible();

  // A phone's card shows the same day.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card.getByRole('img', { name: 'CPU over 24 h' })).toBeVisible();
  await shot(page, 'dashboard-day-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // And back to the live sparklines.
  await card.getByRole('button', { name: 'Host menu for edge' }).click();
  await page.getByRole('menuitem', { name: 'Show Live Sparklines' }).click();
  await expect(card).toHaveAttribute('data-sparklines', /live|paused/);
  await expect(card.getByRole('img', { name: 'CPU history' })).toBeVisible();
  await expect
    .poll(async () => (await api.get<Preferences>('/v2/user/preferences')).dashboard.historyCards)
    .toEqual([]);
});

test('a card of a host without history yet says so rather than drawing nothing', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  const host = await api.post<Host>('/hosts', hostPayload('plain', 'fresh'));
  await api.patch('/v2/user/preferences', { dashboard: { historyCards: [host.id] } });
  await signIn(page);
  const card = page.getByTestId('host-card-fresh');
  await expect(card.getByTestId('day-empty')).toContainText('No history yet');
});
