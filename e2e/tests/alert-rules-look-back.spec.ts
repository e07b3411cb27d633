import type { AlertRule, AlertRuleList } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { expect, signIn, test } from '../fixtures/test.js';

test('a metric rule looks back over history: the switch, its line, its bounds, saved and read back', async ({
  page,
  readyServer,
}) => {
  const api = await apiFor(readyServer.url);
  await signIn(page);
  await page.goto('/alerts/rules');
  await page.getByRole('button', { name: 'Create Rule' }).click();
  const form = page.getByRole('dialog', { name: 'Create Alert Rule' });
  const summary = form.getByTestId('rule-summary');
  const lookBack = form.getByRole('switch', { name: 'Look back over history' });
  const occurrences = form.getByLabel('Occurrences', { exact: true });

  await form.getByLabel('Name *', { exact: true }).fill('CPU for half an hour');
  await form.getByLabel('Scope *', { exact: true }).selectOption('host');
  await expect(form.getByLabel('Kind *', { exact: true })).toHaveValue('cpu_high');
  await expect(lookBack).not.toBeChecked();
  await expect(form.getByTestId('look-back-hint')).toHaveText(
    'Compares the average over the duration read from metrics history, so a long rule survives a Berth restart.',
  );
  await expect(summary).toContainText('for 300 s, 3 occurrence(s)');

  await lookBack.check();
  await expect(occurrences).toBeDisabled();
  await expect(summary).toContainText('average over 300 s from history');
  // Under the history's resolution: refused in the form with the server's words.
  await form.getByLabel('Duration (seconds)', { exact: true }).fill('20');
  await form.getByRole('button', { name: 'Create Rule' }).click();
  await expect(form.getByTestId('rule-form-error')).toHaveText(
    'Duration must be at least 30 for a look-back rule (history has a point every 10 s)',
  );
  await form.getByLabel('Duration (seconds)', { exact: true }).fill('1800');
  await expect(form.getByTestId('rule-form-error')).toHaveCount(0);
  await form.getByRole('button', { name: 'Create Rule' }).click();
  await page
    .getByRole('dialog', { name: 'No Notification Channels Selected' })
    .getByRole('button', { name: 'Create Anyway' })
    .click();
  await expect(form).toHaveCount(0);

  const [rule] = (await api.get<AlertRuleList>('/alerts/rules')).rules;
  expect(rule).toMatchObject({
    name: 'CPU for half an hour',
    scope: 'host',
    kind: 'cpu_high',
    duration_seconds: 1800,
    look_back: true,
  });

  // The editor reads it back; a kind without history has no switch and saves without it.
  await page
    .getByTestId('rule-row')
    .getByRole('button', { name: 'Edit CPU for half an hour' })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit Alert Rule' });
  await expect(edit.getByRole('switch', { name: 'Look back over history' })).toBeChecked();
  await edit.getByLabel('Kind *', { exact: true }).selectOption('host_down');
  await expect(edit.getByRole('switch', { name: 'Look back over history' })).toHaveCount(0);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await page
    .getByRole('dialog', { name: 'No Notification Channels Selected' })
    .getByRole('button', { name: 'Save Anyway' })
    .click();
  await expect(edit).toHaveCount(0);
  const saved = await api.get<AlertRule>(`/alerts/rules/${rule?.id ?? ''}`);
  expect(saved.kind).toBe('host_down');
  expect(saved).not.toHaveProperty('look_back');
});
