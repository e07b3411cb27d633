import type { AlertRule, AlertRuleList, Host } from '@berth/contracts';
import type { Page } from '@playwright/test';
import { apiFor } from '../fixtures/api.js';
import { hostPayload } from '../fixtures/rig.js';
import { expect, signIn, test } from '../fixtures/test.js';

const shot = (page: Page, name: string) =>
  page.screenshot({ path: new URL(`../.artifacts/${name}.png`, import.meta.url).pathname });

const DELETE_TEXT =
  'Are you sure you want to delete this rule? This action cannot be undone. Existing alerts created by this rule will remain.';

test('create a rule through the form (resets, no-channel confirmation), toggle, ?ruleId=, save failure and delete', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await api.post<Host>('/hosts', hostPayload('plain', 'edge'));
  await signIn(page);
  await page.goto('/alerts');
  await page.getByRole('link', { name: 'Manage Rules' }).click();
  await expect(page).toHaveURL(/\/alerts\/rules$/);
  await expect(page.getByText('No alert rules configured')).toBeVisible();

  await page.getByRole('button', { name: 'Create Rule' }).click();
  const form = page.getByRole('dialog', { name: 'Create Alert Rule' });
  const summary = form.getByTestId('rule-summary');
  await expect(summary).toContainText('Rule Summary');

  // Nothing named: the inline red banner, no call.
  await form.getByRole('button', { name: 'Create Rule' }).click();
  await expect(form.getByRole('alert')).toHaveText('Name is required');

  await form.getByLabel('Name *', { exact: true }).fill('Web stopped');
  await expect(summary).toContainText('Web stopped');
  // A new rule watches containers with a metric kind: metric timing defaults.
  await expect(form.getByLabel('Kind *', { exact: true })).toHaveValue('cpu_high');
  await expect(form.getByLabel('Duration (seconds)', { exact: true })).toHaveValue('300');
  await expect(form.getByLabel('Occurrences', { exact: true })).toHaveValue('3');
  await expect(form.getByLabel('Cooldown (seconds)', { exact: true })).toHaveValue('300');
  await expect(form.getByLabel('Threshold (%)', { exact: true })).toHaveValue('90');
  await expect(summary).toContainText('CPU % >= 90');
  await form.getByLabel('Threshold (%)', { exact: true }).fill('75.5');
  await expect(summary).toContainText('CPU % >= 75.5');
  // A clear threshold above the raise threshold of a >= rule would clear the alert it raises.
  await form.getByLabel('Clear threshold (%)', { exact: true }).fill('80');
  await form.getByRole('button', { name: 'Create Rule' }).click();
  await expect(form.getByTestId('rule-form-error')).toHaveText(
    'Clear threshold must be at or below the threshold (75.5) for a >= rule',
  );
  await form.getByLabel('Clear threshold (%)', { exact: true }).fill('70');
  await expect(form.getByTestId('rule-form-error')).toHaveCount(0);

  // Update kinds have no timing.
  await form.getByLabel('Kind *', { exact: true }).selectOption('update_available');
  await expect(form.getByLabel('Duration (seconds)', { exact: true })).toHaveCount(0);
  // Event kinds: duration 0, occurrences 1, cooldown 15, clear duration 30.
  await form.getByLabel('Kind *', { exact: true }).selectOption('container_stopped');
  await expect(form.getByLabel('Duration (seconds)', { exact: true })).toHaveValue('0');
  await expect(form.getByLabel('Occurrences', { exact: true })).toHaveValue('1');
  await expect(form.getByLabel('Cooldown (seconds)', { exact: true })).toHaveValue('15');
  await expect(form.getByLabel('Clear duration (seconds)', { exact: true })).toHaveValue('30');
  await expect(form.getByLabel('Threshold (%)', { exact: true })).toHaveCount(0);

  // Scope host: the kind is not a host kind, so the first host kind; suppress goes off.
  const suppress = form.getByRole('switch', { name: 'Suppress during updates' });
  await expect(suppress).toBeChecked();
  await form.getByLabel('Scope *', { exact: true }).selectOption('host');
  await expect(form.getByLabel('Kind *', { exact: true })).toHaveValue('cpu_high');
  await expect(suppress).not.toBeChecked();
  await expect(form.getByRole('button', { name: 'Hosts' })).toBeDisabled();
  await form.getByRole('checkbox', { name: 'All hosts' }).uncheck();
  await expect(form.getByRole('button', { name: 'Hosts' })).toBeEnabled();
  await form.getByLabel('Scope *', { exact: true }).selectOption('container');
  await expect(suppress).toBeChecked();
  await form.getByLabel('Kind *', { exact: true }).selectOption('container_stopped');
  await expect(summary).toContainText('Container stopped');

  // Container names only in run mode All.
  await expect(form.getByRole('button', { name: 'Container names' })).toBeVisible();
  await form.getByLabel('Run mode', { exact: true }).selectOption('should_run');
  await expect(form.getByRole('button', { name: 'Container names' })).toHaveCount(0);
  await expect(summary).toContainText('all containers that should run');
  await form.getByLabel('Run mode', { exact: true }).selectOption('all');
  await form.getByLabel('Severity *', { exact: true }).selectOption('error');

  // No channels exist yet: the picker says so and saving asks first.
  await expect(form.getByTestId('rule-no-channels')).toHaveText(
    'No notification channels configured',
  );
  await shot(page, 'rule-form-1440');
  await form.getByRole('button', { name: 'Create Rule' }).click();
  const ask = page.getByRole('dialog', { name: 'No Notification Channels Selected' });
  await ask.getByRole('button', { name: 'Go Back' }).click();
  await expect(ask).toHaveCount(0);
  await expect(form).toBeVisible();
  await form.getByRole('button', { name: 'Create Rule' }).click();
  await ask.getByRole('button', { name: 'Create Anyway' }).click();
  await expect(form).toHaveCount(0);
  const row = page.getByTestId('rule-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Web stopped');
  await expect(row).toContainText('Container stopped');
  const [rule] = (await api.get<AlertRuleList>('/alerts/rules')).rules;
  expect(rule).toMatchObject({
    name: 'Web stopped',
    scope: 'container',
    kind: 'container_stopped',
    severity: 'error',
    duration_seconds: 0,
    occurrences: 1,
    cooldown_seconds: 15,
    clear_duration_seconds: 30,
    notify_channels_json: [],
    suppress_during_updates: true,
    enabled: true,
  });
  await shot(page, 'rules-1440');

  // The enable toggle.
  await row.getByRole('switch', { name: 'Enable Web stopped' }).uncheck();
  await expect
    .poll(async () => (await api.get<AlertRule>(`/alerts/rules/${rule?.id ?? ''}`)).enabled)
    .toBe(false);

  // ?ruleId= opens the rule in the editor and leaves the address.
  await page.goto(`/alerts/rules?ruleId=${rule?.id ?? ''}`);
  const edit = page.getByRole('dialog', { name: 'Edit Alert Rule' });
  await expect(edit.getByLabel('Name *', { exact: true })).toHaveValue('Web stopped');
  await expect(page).not.toHaveURL(/ruleId/);

  // A save the server refuses shows its message in the inline red banner.
  await page.route('**/api/alerts/rules/*', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ detail: 'Cooldown must be at least 0' }),
        })
      : route.fallback(),
  );
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await page
    .getByRole('dialog', { name: 'No Notification Channels Selected' })
    .getByRole('button', { name: 'Save Anyway' })
    .click();
  await expect(edit.getByTestId('rule-form-error')).toHaveText('Cooldown must be at least 0');
  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, 'rule-form-1024');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await shot(page, 'rules-1024');

  // Delete asks with the spec's text.
  await row.getByRole('button', { name: 'Delete Web stopped' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Rule' });
  await expect(confirm).toContainText(DELETE_TEXT);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No alert rules configured')).toBeVisible();
  expect((await api.get<AlertRuleList>('/alerts/rules')).total).toBe(0);
});

test('a 200-character rule name wraps: the actions stay in view at 1440 px', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  const rule = (name: string) => ({
    name,
    scope: 'container',
    kind: 'container_stopped',
    severity: 'warning',
  });
  // One name with no space to break at (the worst case), one of words.
  const names = ['n'.repeat(200), `Wordy ${'words '.repeat(31)}end`.slice(0, 200)];
  for (const name of names) await api.post<AlertRule>('/alerts/rules', rule(name));
  await signIn(page);
  await page.goto('/alerts/rules');
  const rows = page.getByTestId('rule-row');
  await expect(rows).toHaveCount(2);
  for (const name of names) {
    const row = rows.filter({ hasText: name.slice(0, 40) });
    await expect(row.getByRole('button', { name: `Edit ${name}` })).toBeInViewport({ ratio: 1 });
    await expect(row.getByRole('button', { name: `Delete ${name}` })).toBeInViewport({ ratio: 1 });
  }
  // The table fits its box: nothing to scroll sideways to.
  const overflow = await page
    .getByTestId('rules-table')
    .evaluate((table) => table.scrollWidth - (table.parentElement?.clientWidth ?? 0));
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'rules-long-name-1440');
});
