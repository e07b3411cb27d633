import { expect, signIn, test } from '../fixtures/test.js';

test.describe('API reference', () => {
  test('signed in, /api/docs renders the reference from Berth alone, within its CSP', async ({
    page,
    readyServer,
  }) => {
    // Without a session the page is refused.
    const refused = await page.request.get(`${readyServer.url}/api/docs`);
    expect(refused.status()).toBe(401);
    await signIn(page);

    const problems: string[] = [];
    const outside: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
        problems.push(message.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(readyServer.url) && !request.url().startsWith('data:'))
        outside.push(request.url());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(
          `CSP: ${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample}`,
        );
      });
    });

    await page.goto('/api/docs');
    await expect(page.getByRole('heading', { name: 'Berth API' }).first()).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByText('Live channel').first()).toBeVisible();
    // The authentication panel opens on the reader's own session (the browser sends its
    // cookie, so "Try it" works), with no made-up secret shown anywhere.
    await expect(page.getByText('berth_session').first()).toBeVisible();
    await expect(page.getByText(/QUxMIFlPVVIg/)).toHaveCount(0);
    // The hosts group, opened from the sidebar, lists its operations with their permission.
    await page.getByRole('button', { name: 'Open Group - hosts' }).click();
    await page.getByRole('link', { name: /^\/api\/hosts\/\{id\} HTTP Method: GET/ }).click();
    await expect(page.getByText('Permission: read.').first()).toBeVisible();
    await page.screenshot({ path: '/tmp/berth-api-docs.png' });
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });
});
