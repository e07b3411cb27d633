import { expect, signIn, test } from '../fixtures/test.js';

// Settings → Integrations → Prometheus: /metrics is not found until it is turned on here; then
// the page's session reads it, a key reads it, and nobody else does.
test('turn on /metrics and scrape it', async ({ page, request, readyServer }) => {
  const metrics = `${readyServer.url}/metrics`;
  await signIn(page);
  expect((await page.request.get(metrics)).status()).toBe(404);

  await page.goto('/settings?tab=integrations');
  const section = page.getByTestId('prometheus-settings');
  await expect(section.getByTestId('prometheus-scrape-url')).toHaveText(metrics);
  await expect(section.getByTestId('prometheus-scrape-config')).toContainText(
    `targets: ['${new URL(readyServer.url).host}']`,
  );

  // A bad address is named before anything is sent.
  const addresses = section.getByLabel('Allowed addresses');
  await addresses.fill('10.0.0.0/8, 10.0.0.300');
  await expect(section.getByRole('alert')).toHaveText(
    '“10.0.0.300” is not an IP address or a CIDR network.',
  );
  await expect(section.getByRole('button', { name: 'Save' })).toBeDisabled();
  await addresses.fill('10.0.0.0/8, fd00::/8');
  await section.getByRole('switch', { name: 'Expose /metrics' }).click();
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Prometheus settings saved')).toBeVisible();

  // Still there after a reload, as saved.
  await page.reload();
  await expect(section.getByLabel('Allowed addresses')).toHaveValue('10.0.0.0/8, fd00::/8');
  await expect(section.getByRole('switch', { name: 'Expose /metrics' })).toBeChecked();

  // The browser's session reads it; 127.0.0.1 is not allowed, so a bare request is refused.
  const withSession = await page.request.get(metrics);
  expect(withSession.status()).toBe(200);
  expect(withSession.headers()['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(await withSession.text()).toContain('# TYPE berth_live_sockets gauge');
  expect((await request.get(metrics)).status()).toBe(401);

  // A read key from the API reads it too.
  // (made from the page, so the request carries the page's Origin like any change it makes)
  const key = await page.evaluate(async () => {
    const res = await fetch('/api/api-keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'prometheus', scope: 'read' }),
    });
    return ((await res.json()) as { key: string }).key;
  });
  const withKey = await request.get(metrics, { headers: { authorization: `Bearer ${key}` } });
  expect(withKey.status()).toBe(200);
  expect(await withKey.text()).toMatch(/^berth_live_sockets [1-9]/m);
});
