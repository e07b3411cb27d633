import type { Alert, Container } from '@berth/contracts';
import type { Page } from '@playwright/test';
import { openAlerts, seedStoppedRule } from '../fixtures/alerts.js';
import { apiFor } from '../fixtures/api.js';
import { docker, TestContainers } from '../fixtures/docker.js';
import { expect, signIn, test } from '../fixtures/test.js';

const containers = new TestContainers();
test.afterEach(() => containers.removeAll());

const shot = (page: Page, name: string) =>
  page.screenshot({ path: new URL(`../.artifacts/${name}.png`, import.meta.url).pathname });

const rows = (page: Page) => page.getByTestId('alert-row');

test('a killed container raises a live alert; the panel snoozes, annotates and resolves it; filters and ?alertId=', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  const { names, rule } = await seedStoppedRule(api, containers, 2);
  const [first = '', second = ''] = names;
  await signIn(page);
  await page.goto('/alerts');
  await expect(page.getByRole('heading', { name: 'Alerts', exact: true })).toBeVisible();
  await expect(page.getByTestId('alerts-empty')).toHaveText(
    'No alerts foundTry adjusting your filters',
  );
  await expect(page.getByTestId('alert-count-critical')).toContainText('0');
  await expect(page.getByRole('link', { name: 'Manage Rules' })).toHaveAttribute(
    'href',
    '/alerts/rules',
  );

  // The alert arrives over the live socket, well before the 30 s refetch.
  docker('plain', 'kill', first);
  const title = `Stopped - ${first} on edge`;
  await expect(rows(page)).toHaveCount(1, { timeout: 8000 });
  await expect(rows(page)).toContainText(title);
  await expect(rows(page)).toContainText('Just now');
  await expect(page.getByTestId('alert-count-critical')).toContainText('1');
  await expect(page.getByTestId('alert-count-open')).toContainText('1');
  await shot(page, 'alerts-1440');

  // The panel: links, annotation (not blank), snooze, unsnooze, resolve with confirmation.
  await rows(page).getByRole('button', { name: title }).click();
  const panel = page.getByRole('dialog', { name: title });
  await expect(panel).toBeVisible();
  await expect(page).toHaveURL(/alertId=/);
  const [alert] = await openAlerts(api);
  await expect(panel.getByRole('link', { name: 'View Events' })).toHaveAttribute(
    'href',
    `/events?scope_id=${encodeURIComponent(alert?.scope_id ?? '')}`,
  );
  await expect(panel.getByRole('link', { name: 'View Rule' })).toHaveAttribute(
    'href',
    `/alerts/rules?ruleId=${rule.id}`,
  );
  await expect(panel.getByRole('link', { name: 'View Host' })).toHaveAttribute(
    'href',
    /^\/hosts\?hostId=/,
  );
  await expect(panel.getByRole('link', { name: 'View Container' })).toHaveAttribute(
    'href',
    /^\/containers\?containerId=/,
  );
  await expect(panel.getByTestId('alert-related-events')).toContainText(first);
  const note = panel.getByRole('textbox', { name: 'Add annotation' });
  const add = panel.getByRole('button', { name: 'Add Annotation' });
  await note.fill('   ');
  await expect(add).toBeDisabled();
  await note.fill('Looking into it');
  await add.click();
  await expect(panel.getByTestId('alert-annotations')).toContainText('Looking into it');
  await expect(panel.getByTestId('alert-annotations')).toContainText('admin');
  await expect(note).toHaveValue('');
  await shot(page, 'alert-panel-1440');

  await panel.getByRole('button', { name: 'Snooze' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['15 min', '30 min', '1 h', '4 h', '24 h']);
  await page.getByRole('menuitem', { name: '1 h' }).click();
  await expect(panel.getByText('Snoozed until')).toBeVisible();
  await expect(rows(page)).toHaveAttribute('data-state', 'snoozed');
  const snoozed = (await api.get<Alert>(`/alerts/${alert?.id ?? ''}`)).snoozed_until ?? '';
  expect(Date.parse(snoozed) - Date.now()).toBeGreaterThan(55 * 60_000);
  await panel.getByRole('button', { name: 'Unsnooze' }).click();
  await expect(panel.getByRole('button', { name: 'Snooze' })).toBeVisible();
  await expect(rows(page)).toHaveAttribute('data-state', 'open');

  await panel.getByRole('button', { name: 'Resolve' }).click();
  const confirm = page.getByRole('dialog', { name: 'Resolve Alert' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.getByText('Manually resolved')).toHaveCount(0);
  await panel.getByRole('button', { name: 'Resolve' }).click();
  await confirm.getByRole('button', { name: 'Resolve' }).click();
  await expect(panel.getByText('Manually resolved')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Resolve' })).toHaveCount(0);
  await expect(note).toHaveCount(0);
  await expect(rows(page)).toHaveAttribute('data-state', 'resolved');
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/alertId=/);

  // ?alertId= opens the panel on load.
  await page.goto(`/alerts?alertId=${alert?.id ?? ''}`);
  await expect(page.getByRole('dialog', { name: title })).toBeVisible();
  await page.keyboard.press('Escape');

  // Filters: State, Severity, Scope; clicking the active one clears it.
  docker('plain', 'kill', second);
  await expect(rows(page)).toHaveCount(2, { timeout: 8000 });
  const state = page.getByRole('group', { name: 'State' });
  await state.getByRole('button', { name: 'Open' }).click();
  await expect(state.getByRole('button', { name: 'Open' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/state=open/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText(second);
  await state.getByRole('button', { name: 'Open' }).click();
  await expect(page).not.toHaveURL(/state=/);
  await expect(rows(page)).toHaveCount(2);
  const severity = page.getByRole('group', { name: 'Severity' });
  await severity.getByRole('button', { name: 'Warning' }).click();
  await expect(page.getByTestId('alerts-empty')).toContainText('No alerts found');
  await severity.getByRole('button', { name: 'Critical' }).click();
  await expect(rows(page)).toHaveCount(2);
  await severity.getByRole('button', { name: 'Critical' }).click();
  const scope = page.getByRole('group', { name: 'Scope' });
  await scope.getByRole('button', { name: 'Host' }).click();
  await expect(page.getByTestId('alerts-empty')).toContainText('Try adjusting your filters');
  await scope.getByRole('button', { name: 'Container' }).click();
  await expect(rows(page)).toHaveCount(2);
  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, 'alerts-1024');
  await rows(page).first().getByRole('button').click();
  await shot(page, 'alert-panel-1024');
});

test('bulk snooze and resolve; the containers table Alerts column and the detail Alerts tab', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  const { names } = await seedStoppedRule(api, containers, 2);
  const [first = '', second = ''] = names;
  docker('plain', 'kill', first);
  docker('plain', 'kill', second);
  await expect.poll(async () => (await openAlerts(api)).length, { timeout: 10_000 }).toBe(2);
  await signIn(page);

  // The Alerts column: counts by severity, linking to the filtered alerts page.
  await page.goto('/containers');
  const row = page.getByRole('row').filter({ hasText: first });
  await row.getByRole('link', { name: '1 critical' }).click();
  await expect(page).toHaveURL(/\/alerts\?state=open&severity=critical&scope_id=/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText(first);
  await expect(page.getByRole('button', { name: 'Clear scope filter' })).toContainText(first);
  await page.getByRole('button', { name: 'Clear scope filter' }).click();
  await expect(rows(page)).toHaveCount(2);

  // Bulk snooze: 15 minutes, 1 hour, 4 hours, 24 hours.
  await page.getByRole('checkbox', { name: 'Select all alerts on this page' }).check();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar).toContainText('2 selected');
  await bar.getByRole('button', { name: 'Snooze' }).click();
  await expect(page.getByRole('menuitem')).toHaveText([
    '15 minutes',
    '1 hour',
    '4 hours',
    '24 hours',
  ]);
  await page.getByRole('menuitem', { name: '4 hours', exact: true }).click();
  await expect(bar).toHaveCount(0);
  await expect(page).toHaveURL(/state=open/);
  await page.getByRole('group', { name: 'State' }).getByRole('button', { name: 'Open' }).click();
  await expect(rows(page)).toHaveCount(2);
  for (const r of await rows(page).all()) await expect(r).toHaveAttribute('data-state', 'snoozed');
  const all = (await api.get<{ alerts: Alert[] }>('/alerts/')).alerts;
  for (const a of all) {
    expect(a.state).toBe('snoozed');
    const left = Date.parse(a.snoozed_until ?? '') - Date.now();
    expect(left).toBeGreaterThan(235 * 60_000);
    expect(left).toBeLessThan(241 * 60_000);
  }

  // Bulk resolve asks first.
  await rows(page).first().getByRole('checkbox').check();
  await expect(bar).toContainText('1 selected');
  await bar.getByRole('button', { name: 'Resolve' }).click();
  const confirm = page.getByRole('dialog', { name: 'Resolve Alerts' });
  await expect(confirm).toContainText('Resolve 1 selected alert?');
  await confirm.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.locator('[data-testid="alert-row"][data-state="resolved"]')).toHaveCount(1);

  // The container detail dialog's Alerts tab, with the side panel.
  const listed = (await api.get<Container[]>('/containers')).find((c) => c.name === second);
  await page.goto(`/containers?containerId=${listed?.host_id ?? ''}:${listed?.id ?? ''}`);
  const dialog = page.getByRole('dialog', { name: `${second} (edge)` });
  await dialog.getByRole('tab', { name: 'Alerts' }).click();
  const tab = dialog.getByTestId('container-alerts-tab');
  await expect(tab.getByTestId('alert-row')).toHaveCount(1);
  await expect(tab.getByTestId('alert-row')).toContainText(second);
  await shot(page, 'container-alerts-tab-1440');
  await tab.getByTestId('alert-row').getByRole('button').click();
  await expect(page.getByTestId('alert-panel')).toContainText(second);
  await shot(page, 'container-alert-panel-1440');
});
