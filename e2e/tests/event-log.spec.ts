import { readFileSync } from 'node:fs';
import type { BerthEvent, Host, Preferences } from '@berth/contracts';
import type { Page } from '@playwright/test';
import { apiFor, type TestApi } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

const CSV_HEADER =
  'Timestamp,Severity,Category,Type,Title,Message,Host,Container,Old State,New State';

/**
 * Two hosts on real rig engines, a container on each: `crash` on edge exits with code 3 (an
 * error event), `idle` on core keeps running. Answers once the engines' events are logged.
 */
async function seed(api: TestApi) {
  const edge = await api.post<Host>('/hosts', hostPayload('plain', 'edge'));
  const core = await api.post<Host>('/hosts', hostPayload('tls', 'core'));
  const online = async () => (await api.get<Host[]>('/hosts')).every((h) => h.status === 'online');
  await expect.poll(online, { timeout: 15_000 }).toBe(true);
  const crash = containers.run('plain', 'crash', 'sleep 1; exit 3');
  const idle = containers.run('tls', 'idle');
  const titles = async () =>
    (await api.get<{ events: BerthEvent[] }>('/events?limit=200')).events.map((e) => e.title);
  await expect
    .poll(titles, { timeout: 20_000 })
    .toEqual(expect.arrayContaining([`Container Died: ${crash}`, `Container Started: ${idle}`]));
  return { edge, core, crash, idle };
}

const rows = (page: Page) => page.getByTestId('event-row');
/** An entry of the open filter list (the time range's native options are options too). */
const pick = (page: Page, name: string) =>
  page.getByRole('listbox').getByRole('option', { name, exact: true });

test('filters, search on Enter, ?host_id= and ?scope_id=, Reset, row panels and live events', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  const { edge, core, crash, idle } = await seed(api);
  // A tall window (35 a page): this test's rows and its hosts' stay on the first page.
  await page.setViewportSize({ width: 1440, height: 1600 });
  await signIn(page);
  await page.goto('/events');
  // The page is the Event Log; its sidebar entry keeps the short name.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Event Log');
  await expect(page.getByRole('link', { name: 'Events', exact: true })).toBeVisible();
  await expect(page.getByRole('columnheader')).toHaveText(['TIME', 'SEVERITY', 'EVENT DETAILS']);
  const log = page.getByTestId('event-log');
  await expect(log).toContainText(`Container Died: ${crash}`);
  await expect(log).toContainText(`Container Started: ${idle}`);
  await expect(log).toContainText('Host edge added');
  await expect(page.getByTestId('event-log-showing')).toHaveText(/^Showing 1-\d+ of \d+ events$/);
  await expect(page.getByTestId('event-log-page')).toHaveText(/^Page 1 of \d+$/);

  // Severity: only the crash's exit is an error.
  await page.getByRole('button', { name: 'Severity' }).click();
  await pick(page, 'Error').click();
  await page.keyboard.press('Escape');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText(`Container Died: ${crash}`);
  await expect(rows(page)).toContainText('Exit code 3');
  await expect(page).toHaveURL(/severity=error/);
  await page.getByRole('button', { name: 'Severity' }).click();
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.keyboard.press('Escape');

  // Category: host events only.
  await page.getByRole('button', { name: 'Category' }).click();
  await pick(page, 'Host').click();
  await page.keyboard.press('Escape');
  await expect(log).not.toContainText(crash);
  await expect(log).not.toContainText(idle);
  await expect(log).toContainText('Host edge added');
  await expect(log).toContainText('Host core added');
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/\/events$/);

  // Hosts (with search): core only.
  await page.getByRole('button', { name: 'Hosts' }).click();
  await page.getByLabel('Search hosts').fill('co');
  await expect(page.getByRole('listbox', { name: 'Hosts' }).getByRole('option')).toHaveCount(1);
  await pick(page, 'core').click();
  await page.keyboard.press('Escape');
  await expect(log).not.toContainText(crash);
  await expect(log).toContainText(`Container Started: ${idle}`);
  await expect(page).toHaveURL(new RegExp(`host_id=${core.id}`));
  await page.getByRole('button', { name: 'Reset' }).click();

  // Containers (with search): the crash's events only.
  await page.getByRole('button', { name: 'Containers' }).click();
  await page.getByLabel('Search containers').fill(crash.slice(-8));
  await pick(page, crash).click();
  await page.keyboard.press('Escape');
  await expect(log).not.toContainText(idle);
  await expect(log).not.toContainText('Host edge added');
  await expect(log).toContainText(`Container Started: ${crash}`);
  await page.getByRole('button', { name: 'Reset' }).click();

  // Time range: the last hour still holds everything; all time too.
  await page.getByLabel('Time range').selectOption({ label: 'Last hour' });
  await expect(page).toHaveURL(/hours=1(&|$)/);
  await expect(log).toContainText(`Container Died: ${crash}`);
  await page.getByLabel('Time range').selectOption({ label: 'All time' });
  await expect(page).toHaveURL(/hours=0/);

  // Search applies on Enter only.
  const search = page.getByLabel('Search events');
  await search.fill(idle);
  await expect(log).toContainText(crash);
  await search.press('Enter');
  await expect(log).not.toContainText(crash);
  await expect(log).toContainText(`Container Started: ${idle}`);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(search).toHaveValue('');
  await expect(page.getByLabel('Time range')).toHaveValue('24');
  await expect(log).toContainText(crash);

  // ?host_id= preselects the host; nothing matching says so.
  await page.goto(`/events?host_id=${edge.id}`);
  await expect(page.getByRole('button', { name: 'Hosts' })).toContainText('1');
  await expect(log).toContainText(`Container Died: ${crash}`);
  await expect(log).not.toContainText(idle);
  await page.getByRole('button', { name: 'Category' }).click();
  await pick(page, 'Alert').click();
  await page.keyboard.press('Escape');
  await expect(log).toContainText('No events found');
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/\/events$/);
  await expect(log).toContainText(idle);

  // ?scope_id= (an alert's scope): a host id, or host_id:name of a container.
  await page.goto(`/events?scope_id=${core.id}`);
  await expect(page).toHaveURL(new RegExp(`/events\\?host_id=${core.id}$`));
  await expect(log).toContainText(`Container Started: ${idle}`);
  await expect(log).not.toContainText(crash);
  await page.goto(`/events?scope_id=${edge.id}:${crash}`);
  await expect(page).toHaveURL(/\/events\?container_id=/);
  await expect(page.getByRole('button', { name: 'Containers' })).toContainText('1');
  await expect(log).toContainText(`Container Died: ${crash}`);
  await expect(log).not.toContainText('Host edge added');
  await page.getByRole('button', { name: 'Reset' }).click();

  // A row's host and container open their panels (simplified workflow: the full views).
  const idleRow = rows(page).filter({ hasText: `Container Started: ${idle}` });
  await idleRow.getByRole('button', { name: 'Open host core' }).click();
  await expect(page.getByTestId('host-modal')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('host-modal')).toHaveCount(0);
  await idleRow.getByRole('button', { name: `Open container ${idle}` }).click();
  await expect(page.getByRole('dialog', { name: `${idle} (core)` })).toBeVisible();
  await page.keyboard.press('Escape');

  // A new event shows over the live socket, well before the 30 s refetch.
  docker('tls', 'stop', idle);
  await expect(log).toContainText(`Container Stopped: ${idle}`, { timeout: 8000 });
});

test('the sort order is saved and the CSV has the spec columns', async ({ page, readyServer }) => {
  const api = await apiFor(readyServer.url);
  const { crash } = await seed(api);
  await signIn(page);
  await page.goto('/events');
  await expect(rows(page).first()).not.toContainText('Host edge added');

  await page.getByRole('button', { name: 'Newest First' }).click();
  await expect(page.getByRole('button', { name: 'Oldest First' })).toBeVisible();
  await expect(rows(page).first()).toContainText('Host edge added');
  await expect
    .poll(async () => (await api.get<Preferences>('/v2/user/preferences')).event_sort_order)
    .toBe('asc');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Oldest First' })).toBeVisible();
  await expect(rows(page).first()).toContainText('Host edge added');

  const shown = /of (\d+) events/.exec(
    (await page.getByTestId('event-log-showing').textContent()) ?? '',
  );
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^events-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await file.path(), 'utf8').split('\n');
  expect(csv[0]).toBe(CSV_HEADER);
  // Every matching event, not only the page shown (more may have arrived since).
  const total = (await api.get<{ total_count: number }>('/events?hours=24')).total_count;
  expect(csv.length - 1).toBeGreaterThanOrEqual(Number(shown?.[1]));
  expect(csv.length - 1).toBeLessThanOrEqual(total);
  // Oldest first, as shown; the crash's exit with its host and container.
  expect(csv[1]).toContain('"Host edge added"');
  expect(csv).toContainEqual(
    expect.stringMatching(
      new RegExp(
        `"error","container","died","Container Died: ${crash}","Exit code 3","edge","${crash}"`,
      ),
    ),
  );
});

test('the host modal Events tab lists the host events and its CSV has the Host column', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  const { edge, crash, idle } = await seed(api);
  await signIn(page);
  await page.goto(`/hosts?hostId=${edge.id}`);
  const modal = page.getByTestId('host-modal');
  await modal.getByRole('tab', { name: 'Events' }).click();
  const list = modal.getByTestId('host-events-log');
  await expect(list).toContainText(`Container Died: ${crash}`);
  await expect(list).toContainText('Host edge added');
  await expect(list).not.toContainText(idle);

  const download = page.waitForEvent('download');
  await modal.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^edge-events-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await file.path(), 'utf8').split('\n');
  expect(csv[0]).toBe(CSV_HEADER);
  expect(csv.slice(1).every((line) => line.includes('"edge"'))).toBe(true);
  expect(csv.some((line) => line.includes(`"Container Died: ${crash}","Exit code 3","edge"`))).toBe(
    true,
  );
});
