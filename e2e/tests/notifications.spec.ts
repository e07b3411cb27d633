import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NotificationChannel } from '@berth/contracts';
import { apiFor } from '../fixtures/api.js';
import { expect, signIn, test as base } from '../fixtures/test.js';

const TOKEN = '555000111:e2e-token';

/** A loopback Telegram Bot API: records the paths it was asked for. */
interface Receiver {
  url: string;
  paths: string[];
}

const test = base.extend<{ receiver: Receiver }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture list from this pattern
  receiver: async ({}, use) => {
    const paths: string[] = [];
    const server: Server = createServer((req, res) => {
      paths.push(req.url ?? '');
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await use({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths });
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
  serverEnv: async ({ receiver }, use) => {
    await use({ BERTH_TELEGRAM_API_URL: receiver.url });
  },
});

test.describe('notification settings', () => {
  test('channels: create with the per-type messages, test, toggle, edit, delete with dependent rules', async ({
    page,
    readyServer,
    receiver,
  }) => {
    await signIn(page);
    await page.goto('/settings?tab=notifications');
    await expect(page.getByText('No notification channels configured')).toBeVisible();
    await page.getByRole('button', { name: 'Add channel' }).click();
    const form = page.getByRole('dialog', { name: 'Add notification channel' });
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.getByRole('alert')).toHaveText('Channel name is required');
    await form.getByLabel('Name').fill('On-call');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.getByRole('alert')).toHaveText('Bot token is required');
    await form.getByLabel('Bot token').fill(TOKEN);
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.getByRole('alert')).toHaveText('Chat ID is required');
    // Changing the type clears the config.
    await form.getByLabel('Type').selectOption('discord');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.getByRole('alert')).toHaveText('Webhook URL is required');
    await form.getByLabel('Type').selectOption('telegram');
    await expect(form.getByLabel('Bot token')).toHaveValue('');
    await form.getByLabel('Bot token').fill(TOKEN);
    await form.getByLabel('Chat ID').fill('4242');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByText('Channel created successfully')).toBeVisible();
    const row = page.getByTestId('channel-On-call');
    await expect(row).toContainText('Telegram');

    await row.getByRole('button', { name: 'Test' }).click();
    await expect(page.getByText('Test notification sent successfully!')).toBeVisible();
    expect(receiver.paths).toContain(`/bot${TOKEN}/sendMessage`);

    await row.getByLabel('Enable On-call').click();
    await expect(row).toContainText('Disabled');

    await row.getByRole('button', { name: 'Edit On-call' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit notification channel' });
    await expect(edit.getByLabel('Type')).toBeDisabled();
    await expect(edit.getByLabel('Bot token')).toHaveValue('');
    await expect(edit.getByLabel('Bot token')).toHaveAttribute(
      'placeholder',
      /Leave blank to keep/,
    );
    await edit.getByLabel('Chat ID').fill('4343');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Channel updated successfully')).toBeVisible();

    // A channel that cannot deliver: the test toast carries the reason.
    const api = await apiFor(readyServer.url);
    await api.post('/notifications/channels', {
      name: 'Broken',
      type: 'discord',
      config: { webhook_url: 'http://127.0.0.1:65500/none' },
    });
    await page.reload();
    await page.getByTestId('channel-Broken').getByRole('button', { name: 'Test' }).click();
    await expect(page.getByText(/^Test failed: Could not connect/)).toBeVisible();
    await expect(page.getByTestId('channel-Broken').getByTestId('channel-error')).toBeVisible();

    const channels = await api.get<NotificationChannel[]>('/notifications/channels');
    const oncall = channels.find((c) => c.name === 'On-call');
    await api.post('/alerts/rules', {
      name: 'Web stopped',
      scope: 'container',
      kind: 'container_stopped',
      severity: 'critical',
      enabled: true,
      duration_seconds: 0,
      occurrences: 1,
      cooldown_seconds: 15,
      auto_resolve: false,
      notify_channels_json: [String(oncall?.id)],
    });
    await row.getByRole('button', { name: 'Delete On-call' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete notification channel' });
    await expect(confirm.getByTestId('channel-dependents')).toContainText('1 alert rule(s)');
    await expect(confirm.getByTestId('channel-dependents')).toContainText('Web stopped');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Channel deleted successfully')).toBeVisible();
    await expect(page.getByTestId('channel-On-call')).toHaveCount(0);
  });

  test('the rule form lists the real channels; a disabled one cannot be ticked', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/notifications/channels', {
      name: 'Ops mail hook',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:65500/hook' },
    });
    await api.post('/notifications/channels', {
      name: 'Muted chat',
      type: 'slack',
      enabled: false,
      config: { webhook_url: 'http://127.0.0.1:65500/slack' },
    });
    await signIn(page);
    await page.goto('/alerts/rules');
    await page.getByRole('button', { name: 'Create Rule' }).click();
    const form = page.getByRole('dialog', { name: 'Create Alert Rule' });
    await expect(form.getByRole('checkbox', { name: /Ops mail hook/ })).toBeEnabled();
    await expect(form.getByRole('checkbox', { name: /Muted chat/ })).toBeDisabled();
  });
});

test.describe('alerts settings', () => {
  test('blackout windows: defaults, Save disabled without a name or a day, Active/Inactive; the banner', async ({
    page,
    readyServer,
  }) => {
    await signIn(page);
    await page.goto('/settings?tab=alerts');
    await page.getByRole('button', { name: 'Add blackout window' }).click();
    const form = page.getByRole('dialog', { name: 'Add blackout window' });
    await expect(form.getByLabel('Start time')).toHaveValue('22:00');
    await expect(form.getByLabel('End time')).toHaveValue('06:00');
    for (const d of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])
      await expect(form.getByRole('checkbox', { name: d })).toBeChecked();
    for (const d of ['Sat', 'Sun'])
      await expect(form.getByRole('checkbox', { name: d })).not.toBeChecked();
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
    await form.getByLabel('Name').fill('Nightly');
    await expect(form.getByRole('button', { name: 'Save' })).toBeEnabled();
    for (const d of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])
      await form.getByRole('checkbox', { name: d }).uncheck();
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
    await form.getByRole('checkbox', { name: 'Sat' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    const list = page.getByTestId('blackout-list');
    await expect(list).toContainText('Nightly');
    await expect(list).toContainText('22:00–06:00 · Sat');
    await expect(list).toContainText('Active');
    await list.getByLabel('Nightly active').click();
    await expect(list).toContainText('Inactive');

    // A window covering now: the banner; dismissed, then shown again by a new blackout.
    const api = await apiFor(readyServer.url);
    const always = {
      name: 'Always',
      enabled: true,
      start_time: '00:00',
      end_time: '00:00',
      days: [0, 1, 2, 3, 4, 5, 6],
    };
    await api.put('/settings', { blackout_windows: [always] });
    const banner = page.getByText('Blackout Window Active');
    await expect(banner).toBeVisible();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner).toBeHidden();
    await api.put('/settings', { blackout_windows: [] });
    await page.waitForTimeout(500);
    await expect(banner).toBeHidden();
    await api.put('/settings', { blackout_windows: [always] });
    await expect(banner).toBeVisible();
  });

  test('templates: unsaved marker, preview with unknown variables, reset, save', async ({
    page,
    readyServer,
  }) => {
    await signIn(page);
    await page.goto('/settings?tab=alerts');
    const editor = page.getByLabel('Default template');
    await expect(page.getByTestId('template-preview')).toContainText('docker-prod-01');
    await expect(page.getByTestId('template-variables')).toContainText('{CONTAINER_NAME}');
    await editor.fill('{SEVERITY} on {HOST_NAME}: {NOPE}');
    await expect(page.getByTestId('templates-unsaved')).toBeVisible();
    await expect(page.getByTestId('template-preview')).toHaveText(
      'CRITICAL on docker-prod-01: {NOPE}',
    );
    await expect(page.getByTestId('template-unknown')).toContainText('{NOPE}');
    await page.getByRole('button', { name: 'Reset to default' }).click();
    await expect(page.getByTestId('templates-unsaved')).toBeHidden();
    await editor.fill('**{KIND}** on {HOST_NAME}');
    await page.getByRole('button', { name: 'Save templates' }).click();
    await expect(page.getByText('Alert templates saved')).toBeVisible();
    await expect(page.getByTestId('templates-unsaved')).toBeHidden();
    const api = await apiFor(readyServer.url);
    const settings = await api.get<{ alert_template: string | null }>('/settings');
    expect(settings.alert_template).toBe('**{KIND}** on {HOST_NAME}');
  });
});
