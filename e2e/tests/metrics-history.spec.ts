import type { Container, Host, MetricsResponse } from '@berth/contracts';
import type { Locator, Page } from '@playwright/test';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
const ARTIFACT = new URL('../.artifacts/metrics-history-phone-light.png', import.meta.url).pathname;
test.afterEach(() => containers.removeAll());

/** A time as a datetime-local input takes it (the browser runs in this machine's zone). */
function localInput(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** Drags across a chart's plot from one fraction of its width to another. */
async function dragAcross(page: Page, plot: Locator, from: number, to: number) {
  const box = await plot.locator('.u-over').boundingBox();
  if (box === null) throw new Error('no plot to drag on');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * from, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((from + to) / 2), y, { steps: 4 });
  await page.mouse.move(box.x + box.width * to, y, { steps: 4 });
  await page.mouse.up();
}

async function customRange(panel: Locator, fromMs: number, toMs: number) {
  await panel.getByRole('radiogroup', { name: 'Time range' }).getByText('Custom').click();
  const form = panel.getByRole('form', { name: 'Custom range' });
  await form.getByLabel('From').fill(localInput(fromMs));
  await form.getByLabel('To').fill(localInput(toMs));
  await form.getByRole('button', { name: 'Apply' }).click();
}

/** How far an open dialog runs past the window or its own box, in CSS pixels. */
const dialogOverflow = (page: Page) =>
  page.evaluate(() =>
    Math.max(
      0,
      ...[...document.querySelectorAll<HTMLElement>('[role="dialog"]')].map((d) => {
        const box = d.getBoundingClientRect();
        return Math.max(Math.ceil(box.right - window.innerWidth), d.scrollWidth - d.clientWidth);
      }),
    ),
  );

test("a container's and its host's history: charts, markers, zoom, ranges, a refused range, a phone in the light theme", async ({
  page,
  readyServer,
}) => {
  test.setTimeout(150_000);
  const api = await apiFor(readyServer.url);
  const host = await api.post<Host>('/hosts', hostPayload('plain', 'edge'));
  const name = containers.run(
    'plain',
    'history',
    "trap 'exit 0' TERM; while :; do i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 1; done",
  );
  // Seen by Berth first, so the restart is an event of a container it knows.
  await expect
    .poll(async () => (await api.get<Container[]>('/containers')).some((c) => c.name === name), {
      timeout: 20_000,
    })
    .toBe(true);
  docker('plain', 'restart', '-t', '2', name);
  // A 10 s point is written once its bucket has ended, a pass later.
  const from = new Date(Date.now() - 5 * 60_000).toISOString();
  await expect
    .poll(
      async () => {
        // 404 until the first point of its series is written.
        const h = await api
          .get<MetricsResponse>(`/hosts/${host.id}/containers/${name}/metrics?from=${from}`)
          .catch(() => null);
        return h?.memory_bytes.mean.filter((m) => (m ?? 0) > 0).length ?? 0;
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBeGreaterThanOrEqual(2);

  await signIn(page);
  await page.goto('/containers');
  await page.getByRole('button', { name, exact: true }).click({ timeout: 15_000 });
  const dialog = page.getByRole('dialog', { name: `${name} (edge)` });
  await dialog.getByRole('tab', { name: 'Metrics' }).click();
  const panel = dialog.getByTestId('metrics-history');

  // The last hour of 10 s points: each chart drawn, the restart on the time axis.
  await expect(panel.getByTestId('history-resolution')).toContainText('10 s points');
  for (const chart of ['CPU', 'Memory', 'Network'])
    await expect(panel.getByRole('img', { name: `${chart} history chart` })).toBeVisible();
  // Block I/O is drawn once the samples carry it; until then it says so instead of a blank.
  const block = panel.getByTestId('history-chart-block');
  await expect(block.getByRole('img').or(block.getByText('No data for this range'))).toBeVisible();
  const markers = panel.getByTestId('history-markers');
  await expect(markers).toContainText(`Container Restarted: ${name}`);
  await expect(markers.locator('li[data-kind="restart"]')).toHaveCount(1);

  // Hovering reads the point under the pointer: its time and memory used.
  const memory = panel.getByTestId('history-plot-memory');
  const over = await memory.locator('.u-over').boundingBox();
  if (over === null) throw new Error('no memory plot');
  await page.mouse.move(over.x + over.width * 0.995, over.y + over.height / 2);
  await expect(panel.getByTestId('history-readout-memory')).toContainText(/\d+(\.\d)? (KB|MB)/);

  // A drag over the last minutes zooms every chart in; Zoom out goes back.
  const cpu = panel.getByTestId('history-plot-cpu');
  await dragAcross(page, cpu, 0.9, 0.999);
  await expect(panel.getByTestId('history-zoom')).toContainText('Zoomed to');
  await expect(panel.getByRole('img', { name: 'CPU history chart' })).toBeVisible();
  await panel.getByRole('button', { name: 'Zoom out' }).click();
  await expect(panel.getByTestId('history-zoom')).toHaveCount(0);
  // A double click goes back too.
  await dragAcross(page, cpu, 0.8, 0.999);
  await expect(panel.getByTestId('history-zoom')).toBeVisible();
  await cpu.locator('.u-over').dblclick();
  await expect(panel.getByTestId('history-zoom')).toHaveCount(0);

  // An hour of yesterday, before the container ran: said plainly, not a blank chart.
  const now = Date.now();
  await customRange(panel, now - 23 * 3_600_000, now - 22 * 3_600_000);
  await expect(panel.getByText('No data for this range')).toBeVisible();
  // Further back than every tier keeps: the server's 400, its detail as it is.
  await customRange(panel, now - 200 * 86_400_000, now);
  await expect(panel.getByTestId('history-error')).toContainText(
    'from: the range is longer than any tier keeps',
  );
  // A 30 s point needs a whole 30 s bucket of 10 s points; under load the container may not
  // have one yet, and the range would rightly say "No data". Asked as the 6 h preset asks:
  // its window ends at now rounded down to 30 s, so a point after that shows only a tick later.
  await expect
    .poll(
      async () => {
        const to = Math.floor(Date.now() / 30_000) * 30_000;
        const window = `from=${new Date(to - 6 * 3_600_000).toISOString()}&to=${new Date(to).toISOString()}`;
        const h = await api
          .get<MetricsResponse>(`/hosts/${host.id}/containers/${name}/metrics?${window}&step=30`)
          .catch(() => null);
        return h?.memory_bytes.mean.filter((m) => (m ?? 0) > 0).length ?? 0;
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBeGreaterThanOrEqual(1);
  await panel.getByRole('radiogroup', { name: 'Time range' }).getByText('6 h').click();
  await expect(panel.getByTestId('history-error')).toHaveCount(0);
  // Six hours in 30 s points from the 10 s tier: current, with min-max bands.
  await expect(panel.getByTestId('history-resolution')).toContainText(
    '30 s points, shaded from min to max',
  );
  await expect(panel.getByRole('img', { name: 'CPU history chart' })).toBeVisible();
  await page.keyboard.press('Escape');

  // The host's Metrics tab: CPU, memory and disk of the whole host.
  await page.goto(`/hosts?hostId=${host.id}`);
  const modal = page.getByTestId('host-modal');
  await modal.getByRole('tab', { name: 'Metrics' }).click();
  const hostPanel = modal.getByTestId('metrics-history');
  await expect(hostPanel.getByRole('img', { name: 'CPU history chart' })).toBeVisible();
  await expect(hostPanel.getByRole('img', { name: 'Memory history chart' })).toBeVisible();
  await expect(hostPanel.getByTestId('history-chart-disk')).toBeVisible();
  await expect(hostPanel.getByTestId('history-readout-cpu')).toContainText('%');
  await page.keyboard.press('Escape');

  // A phone in daylight: the same tab fits 390 px in the light theme.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  const listed = (await api.get<Container[]>('/containers')).find((c) => c.name === name);
  await page.goto(`/containers?containerId=${host.id}:${listed?.id ?? ''}`);
  const phoneDialog = page.getByRole('dialog', { name: `${name} (edge)` });
  await phoneDialog.getByRole('tab', { name: 'Metrics' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(phoneDialog.getByRole('img', { name: 'Memory history chart' })).toBeVisible();
  await expect(phoneDialog.getByTestId('history-markers')).toContainText('Restart');
  expect(await dialogOverflow(page)).toBeLessThanOrEqual(0);
  // The custom range's controls are finger-sized and fit too.
  await phoneDialog.getByRole('radiogroup', { name: 'Time range' }).getByText('Custom').click();
  const apply = await phoneDialog.getByRole('button', { name: 'Apply' }).boundingBox();
  expect(apply?.height).toBeGreaterThanOrEqual(44);
  expect((await phoneDialog.getByLabel('From').boundingBox())?.height).toBeGreaterThanOrEqual(44);
  expect(await dialogOverflow(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: ARTIFACT });
  await page.keyboard.press('Escape');

  // A container that never ran has no series: no data, not an error.
  const [never = ''] = containers.createMany('plain', 'never', 1);
  await expect
    .poll(
      async () => (await api.get<Container[]>('/containers')).find((c) => c.name === never)?.id,
      {
        timeout: 20_000,
      },
    )
    .toBeDefined();
  const created = (await api.get<Container[]>('/containers')).find((c) => c.name === never);
  await page.goto(`/containers?containerId=${host.id}:${created?.id ?? ''}`);
  const neverDialog = page.getByRole('dialog', { name: `${never} (edge)` });
  await neverDialog.getByRole('tab', { name: 'Metrics' }).click();
  await expect(neverDialog.getByText('No data for this range')).toBeVisible();
  await expect(neverDialog.getByTestId('history-error')).toHaveCount(0);
});
