import type { Page } from '@playwright/test';
import { ADMIN, expect, signIn, test } from '../fixtures/test.js';

/** Collects every CSP violation the page reports, from the console and the DOM event. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (t: string) => void })
        .__reportCspViolation;
      report(
        `${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      );
    });
  });
  return violations;
}

test.describe('security headers', () => {
  test('the app loads, signs in and shows the dashboard with no CSP violation', async ({
    page,
    server: _,
  }) => {
    const violations = await watchCsp(page);
    const response = await page.goto('/login');
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['strict-transport-security']).toBeUndefined(); // plain http

    // The first sign-in opens a Radix dialog (scroll lock styles) and ends with a sonner
    // toast: the libraries that insert styles at run time.
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByLabel('New Password', { exact: true }).fill(ADMIN.changed);
    await dialog.getByLabel('Confirm New Password').fill(ADMIN.changed);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Password changed successfully')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('live-status')).toHaveText('Real-time updates');
    for (const path of ['/containers', '/hosts', '/events', '/settings']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    expect(violations).toEqual([]);
  });

  test('the session cookie is HttpOnly and SameSite=Strict', async ({
    page,
    context,
    readyServer: _,
  }) => {
    await signIn(page);
    const cookie = (await context.cookies()).find((c) => c.name === 'berth_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
  });

  test('a foreign page cannot post with the session', async ({ page, server, readyServer: _ }) => {
    await signIn(page);
    // The server's own check, as a browser on another origin would be met.
    const res = await page.request.post(`${server.url}/api/v2/auth/logout`, {
      headers: { origin: 'http://evil.example' },
    });
    expect(res.status()).toBe(403);
    expect(await res.json()).toEqual({ detail: 'Cross-origin request refused' });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  });
});
