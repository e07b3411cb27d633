import { ADMIN, expect, signIn, test } from '../fixtures/test.js';

test.describe('sign-in', () => {
  test('the login form is in the page itself: it paints before any script runs', async ({
    browser,
    readyServer,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${readyServer.url}/login`);
    await expect(page.getByRole('heading', { name: 'Berth' })).toBeVisible();
    await expect(page.getByLabel('Username')).toBeVisible();
    await expect(page.getByLabel('Password')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
    await context.close();
  });

  test('until the app has started, the painted form takes no input; then it signs in', async ({
    page,
    readyServer: _,
  }) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/start-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await expect(page.getByLabel('Username')).toBeVisible();
    await expect(page.getByLabel('Username')).not.toBeEditable();
    await expect(page.getByRole('button', { name: 'Log In' })).toBeDisabled();
    release();
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.changed);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  });

  test('a wrong password shows the spec error', async ({ page, readyServer: _ }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Berth' })).toBeVisible();
    await expect(page.getByText('Docker Container Monitor')).toBeVisible();
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByText('Invalid username or password')).toBeVisible();
    await page.getByLabel('Password').fill('x');
    await expect(page.getByText('Invalid username or password')).toBeHidden();
  });

  test('empty fields ask for both', async ({ page, readyServer: _ }) => {
    await page.goto('/login');
    await page.getByLabel('Username').fill('   ');
    await page.getByLabel('Password').fill('something');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByText('Please enter both username and password')).toBeVisible();
  });

  test('too many attempts show the 429 text', async ({ page, readyServer: _ }) => {
    await page.goto('/login');
    // An address is blocked after 20 failures (one username alone is only slowed down).
    for (let i = 0; i < 20; i++) {
      await page.getByLabel('Username').fill(`nobody-${i}`);
      await page.getByLabel('Password').fill(`wrong-${i}`);
      await page.getByRole('button', { name: 'Log In' }).click();
      await expect(page.getByText('Invalid username or password')).toBeVisible();
    }
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.changed);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByText('Too many login attempts. Please try again later.')).toBeVisible();
  });

  test('a protected URL redirects to /login and back after sign-in', async ({
    page,
    readyServer: _,
  }) => {
    await page.goto('/events');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.changed);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/events$/);
    await expect(page.getByRole('heading', { name: 'Event Log', exact: true })).toBeVisible();
  });

  test('an unknown path goes to the dashboard, and /login to / when signed in', async ({
    page,
    readyServer: _,
  }) => {
    await signIn(page);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
  });

  test('logout returns to /login and the session is gone', async ({ page, readyServer: _ }) => {
    await signIn(page);
    await page.getByRole('button', { name: ADMIN.username }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/hosts');
    await expect(page).toHaveURL(/\/login$/);
  });
});
