import type { NotificationChannel, WebPushKey, WebPushPayload } from '@berth/contracts';
import { browserSubscription, pushService } from '../../packages/server/src/test/push-receiver.js';
import { apiFor } from '../fixtures/api.js';
import { expect, signIn, test as base } from '../fixtures/test.js';

// Settings → Notifications → "This device". Headless Chromium here has no way to its push
// service (Google's FCM is not reachable offline), so the main test subscribes through a
// stand-in pushManager whose subscription points at a loopback push service with keys made
// here; the server's request to it is decrypted with those keys. The last test lets the
// browser try for real and checks that the failure is said in plain words.

type Push = Awaited<ReturnType<typeof pushService>>;

const test = base.extend<{ push: Push }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture list from this pattern
  push: async ({}, use) => {
    const push = await pushService();
    await use(push);
    await push.close();
  },
});

test('"This device": subscribe, test send decrypted at the push service, a revoked subscription said plainly and renewed', async ({
  page,
  readyServer,
  push,
}) => {
  const sub = browserSubscription(`${push.origin}/push/e2e`);
  await page.context().grantPermissions(['notifications'], { origin: readyServer.url });
  await page.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      type Sub = {
        endpoint: string;
        options: { applicationServerKey: ArrayBuffer | null };
        toJSON: () => unknown;
        unsubscribe: () => Promise<boolean>;
      };
      let current: Sub | null = null;
      const registration = {
        pushManager: {
          getSubscription: () => Promise.resolve(current),
          subscribe: (opts: { applicationServerKey: Uint8Array }) => {
            const key = opts.applicationServerKey;
            (window as unknown as { berthPushKey: string }).berthPushKey = btoa(
              String.fromCharCode(...key),
            )
              .replace(/\+/g, '-')
              .replace(/\//g, '_')
              .replace(/=+$/, '');
            current = {
              endpoint,
              options: { applicationServerKey: key.slice().buffer },
              toJSON: () => ({ endpoint, keys: { p256dh, auth } }),
              unsubscribe: () => {
                current = null;
                (window as unknown as { berthUnsubscribed: number }).berthUnsubscribed =
                  ((window as unknown as { berthUnsubscribed?: number }).berthUnsubscribed ?? 0) +
                  1;
                return Promise.resolve(true);
              },
            };
            return Promise.resolve(current);
          },
        },
      };
      navigator.serviceWorker.getRegistration = () =>
        Promise.resolve(registration as unknown as ServiceWorkerRegistration);
    },
    { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth },
  );
  const api = await apiFor(readyServer.url);
  const vapid = (await api.get<WebPushKey>('/notifications/web-push/key')).public_key;

  await signIn(page);
  await page.goto('/settings?tab=notifications');
  await page.getByRole('button', { name: 'Add channel' }).click();
  const form = page.getByRole('dialog', { name: 'Add notification channel' });
  await form.getByLabel('Type').selectOption({ label: 'This device' });
  await expect(form.getByLabel('Name')).toHaveValue('Chrome on Linux');
  await expect(form.getByTestId('web-push-status')).toHaveText(/^Not subscribed yet/);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByRole('alert')).toHaveText('Subscribe this device first.');
  await form.getByLabel('Name').fill('My phone');
  await form.getByRole('button', { name: 'Subscribe this device' }).click();
  await expect(form.getByTestId('web-push-status')).toHaveText(
    'Subscribed: Chrome on Linux will get the notifications once saved.',
  );
  expect(
    await page.evaluate(() => (window as unknown as { berthPushKey: string }).berthPushKey),
  ).toBe(vapid);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  const row = page.getByTestId('channel-My phone');
  await expect(row).toContainText('This device');

  // The list's Test: the server encrypts for the subscription; the push service decrypts.
  await row.getByRole('button', { name: 'Test' }).click();
  await expect(page.getByText('Test notification sent successfully!')).toBeVisible();
  await expect.poll(() => push.to('/push/e2e').length).toBe(1);
  const first = JSON.parse(
    sub.decrypt(push.to('/push/e2e')[0]?.body ?? Buffer.alloc(0)),
  ) as WebPushPayload;
  expect(first.title).toBe('Berth test notification');
  expect(first.body).toContain('the channel My phone is configured correctly');
  expect(first.url).toBe('/settings/notifications');

  // The form knows this browser is the device, and sends a test of its own.
  await row.getByRole('button', { name: 'Edit My phone' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit notification channel' });
  await expect(edit.getByTestId('web-push-status')).toHaveText(
    'Subscribed: Chrome on Linux (this browser).',
  );
  await edit.getByRole('button', { name: 'Send a test' }).click();
  await expect(edit.getByTestId('web-push-test')).toHaveText(
    'Sent. It should appear on Chrome on Linux shortly.',
  );
  expect(push.to('/push/e2e')).toHaveLength(2);

  // The push service says the subscription is gone: said in the form and on the list.
  push.answer(410);
  await edit.getByRole('button', { name: 'Send a test' }).click();
  await expect(edit.getByTestId('web-push-test')).toContainText(
    "The push service says this device's subscription has expired or was revoked",
  );
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(row.getByTestId('channel-error')).toContainText('expired or was revoked');
  const listed = await api.get<NotificationChannel[]>('/notifications/channels');
  expect(listed.find((c) => c.name === 'My phone')?.config.endpoint).toBeUndefined();
  await row.getByRole('button', { name: 'Edit My phone' }).click();
  await expect(edit.getByTestId('web-push-status')).toHaveText(
    /^This device's subscription was removed: its push service said it had expired or been revoked/,
  );
  await expect(edit.getByRole('button', { name: 'Send a test' })).toBeDisabled();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByRole('alert')).toHaveText(/^This device's subscription was removed/);

  // Subscribing again brings it back.
  await edit.getByRole('button', { name: 'Subscribe this device again' }).click();
  await expect(edit.getByTestId('web-push-status')).toHaveText(/^Subscribed: Chrome on Linux/);
  // The dropped subscription is let go in the browser too, and a new one made.
  expect(
    await page.evaluate(
      () => (window as unknown as { berthUnsubscribed?: number }).berthUnsubscribed,
    ),
  ).toBe(1);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row.getByTestId('channel-error')).toBeHidden();
  await row.getByRole('button', { name: 'Test' }).click();
  await expect.poll(() => push.to('/push/e2e').length).toBe(4);
  const last = JSON.parse(
    sub.decrypt(push.to('/push/e2e')[3]?.body ?? Buffer.alloc(0)),
  ) as WebPushPayload;
  expect(last.title).toBe('Berth test notification');
});

test('"This device" in a browser that cannot subscribe says why in plain words', async ({
  page,
  readyServer: _,
}) => {
  // No permission granted, no stand-in: whatever stops this headless browser (the refused
  // permission, the missing push service) is shown as words, never a stack or a spinner.
  await signIn(page);
  await page.goto('/settings?tab=notifications');
  await page.getByRole('button', { name: 'Add channel' }).click();
  const form = page.getByRole('dialog', { name: 'Add notification channel' });
  await form.getByLabel('Type').selectOption({ label: 'This device' });
  await form.getByRole('button', { name: 'Subscribe this device' }).click();
  const problem = form.getByTestId('web-push-problem');
  await expect(problem).toBeVisible({ timeout: 20_000 });
  const text = (await problem.textContent()) ?? '';
  test.info().annotations.push({ type: 'unstubbed subscribe', description: text });
  expect(text).toMatch(
    /^(Notifications are blocked for Berth|The browser asked whether Berth may show notifications|The browser could not reach its push service|Berth's service worker is not running)/,
  );
});

test('"This device" in the real service worker: the app\'s worker shows a push with its link', async ({
  page,
  readyServer,
}) => {
  // The real pushManager of the app's service worker: offline, Chromium cannot reach its push
  // service (FCM), which the form says; online it subscribes.
  await page.context().grantPermissions(['notifications'], { origin: readyServer.url });
  await signIn(page);
  await page.goto('/settings?tab=notifications');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.getByRole('button', { name: 'Add channel' }).click();
  const form = page.getByRole('dialog', { name: 'Add notification channel' });
  await form.getByLabel('Type').selectOption({ label: 'This device' });
  await form.getByRole('button', { name: 'Subscribe this device' }).click();
  const outcome = form.getByTestId('web-push-problem').or(form.getByText(/^Subscribed:/));
  await expect(outcome).toBeVisible({ timeout: 30_000 });
  const said = (await outcome.textContent()) ?? '';
  test.info().annotations.push({ type: 'real subscribe', description: said });
  expect(said).toMatch(/^(Subscribed:|The browser could not reach its push service)/);

  // A push delivered to the app's worker as a push service would (DevTools' own way): the
  // worker imported sw-push.js, which shows it with the alert's link.
  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
      const reg = e.registrations.find((r) => r.scopeURL === `${readyServer.url}/` && !r.isDeleted);
      if (reg !== undefined) resolve(reg.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const payload: WebPushPayload = {
    title: 'CRITICAL: Container stopped - web on h1',
    body: 'Exit code: 137',
    url: '/alerts?alertId=e2e-alert',
    tag: 'e2e-alert',
    severity: 'critical',
    kind: 'alert',
  };
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: readyServer.url,
    registrationId: await registrationId,
    data: JSON.stringify(payload),
  });
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          data: n.data as unknown,
        })),
      ),
    )
    .toEqual([
      {
        title: payload.title,
        body: payload.body,
        tag: 'e2e-alert',
        data: { url: '/alerts?alertId=e2e-alert' },
      },
    ]);

  // A tap with the app open: the worker asks the app to show the alert (sw-push.js's own
  // function, run in the real worker), and the app routes itself without a reload.
  await page.evaluate(() => Object.assign(window, { berthBeforeTap: true }));
  const worker = page.context().serviceWorkers()[0];
  if (worker === undefined) throw new Error('no service worker');
  const routed = await worker.evaluate(async (href) => {
    const scope = globalThis as unknown as {
      clients: { matchAll(o: object): Promise<unknown[]> };
      askAppToRoute(client: unknown, href: string): Promise<boolean>;
    };
    const [app] = await scope.clients.matchAll({ type: 'window' });
    return scope.askAppToRoute(app, href);
  }, `${readyServer.url}${payload.url}`);
  expect(routed).toBe(true);
  await expect(page).toHaveURL(/\/alerts\?alertId=e2e-alert$/);
  expect(await page.evaluate(() => 'berthBeforeTap' in window)).toBe(true);
});
