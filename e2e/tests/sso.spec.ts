import type { Page } from '@playwright/test';
import {
  startOidcProvider,
  type TestProvider,
} from '../../packages/server/src/test/oidc-provider.js';
import { apiFor } from '../fixtures/api.js';
import { ADMIN, expect, signIn, test } from '../fixtures/test.js';

const SHOTS = new URL('../.artifacts/sso/', import.meta.url).pathname;
const CLIENT = { clientId: 'berth-e2e', clientSecret: 'e2e-provider-secret' };

let provider: TestProvider | undefined;
test.afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const start = async (berthUrl: string) => {
  provider = await startOidcProvider({
    ...CLIENT,
    redirectUris: [`${berthUrl}/api/v2/auth/sso/callback`],
  });
  return provider;
};

/** At the provider's own pages (its development login and consent forms). */
async function signInAtProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

const role = async (page: Page) =>
  ((await (await page.request.get('/api/v2/auth/me')).json()) as { user: { role: string } }).user
    .role;

// Settings → Authentication: the admin sets up the provider in the browser (Test runs
// discovery), signs out, and an operator signs in at the provider in Chromium.
test('an admin sets up single sign-on; a user signs in with it in the mapped role', async ({
  page,
  readyServer,
}) => {
  const idp = await start(readyServer.url);
  idp.accounts.set('olga', { groups: ['staff', 'berth-operators'] });

  await signIn(page);
  await page.goto('/settings?tab=authentication');
  const form = page.getByTestId('sso-settings');
  await expect(form.getByTestId('sso-redirect-uri')).toHaveText(
    `${readyServer.url}/api/v2/auth/sso/callback`,
  );
  await form.getByLabel('Display name').fill('Test IdP');
  await form.getByLabel('Issuer URL').fill(idp.issuer);
  await form.getByRole('button', { name: 'Test' }).click();
  await expect(page.getByTestId('sso-test')).toContainText(`Found ${idp.issuer}`);
  await expect(page.getByTestId('sso-test')).toContainText('groups');
  await form.getByLabel('Client ID').fill(CLIENT.clientId);
  await form.getByLabel('Client secret').fill(CLIENT.clientSecret);
  await form.getByLabel('Scopes').fill('openid profile email groups');
  await form.getByLabel('Role claim').fill('groups');
  await form.getByLabel('Admin values').fill('berth-admins');
  await form.getByLabel('Operator values').fill('berth-operators, ops');
  await form.getByRole('switch', { name: 'Sign in with an OpenID Connect provider' }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Single sign-on settings saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Client secret')).toHaveValue('********');
  await page.screenshot({ path: `${SHOTS}settings.png`, fullPage: true });
  await expect(page.getByLabel('Operator values')).toHaveValue('berth-operators, ops');

  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/`));
  await signInAtProvider(page, 'olga');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(await role(page)).toBe('operator');
  await page.goto('/settings');
  await expect(page.getByRole('tab')).toHaveText(['Dashboard', 'API Keys', 'Security']);
});

test('the login page says why a sign-on failed; with password sign-in off, admins keep theirs', async ({
  page,
  readyServer,
}) => {
  const idp = await start(readyServer.url);
  idp.accounts.set('nora', { groups: ['elsewhere'] });
  const api = await apiFor(readyServer.url);
  const settings = {
    enabled: true,
    display_name: 'Test IdP',
    issuer_url: idp.issuer,
    client_id: CLIENT.clientId,
    client_secret: CLIENT.clientSecret,
    scopes: 'openid profile email groups',
    role_claim: 'groups',
    admin_values: ['berth-admins'],
    password_sign_in_disabled: true,
  };
  await api.put('/v2/auth/sso/settings', settings);

  await page.goto('/login');
  // Password sign-in is off: the form shows only behind the admins' link.
  await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toBeVisible();
  await expect(page.getByLabel('Username')).toBeHidden();
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await signInAtProvider(page, 'nora');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('sso-error')).toHaveText(
    'Your account at Test IdP has no Berth role: ask an admin to add you to a group Berth maps',
  );

  // The provider is down: its reason shows, and the admin's password still works.
  await idp.close();
  provider = undefined;
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('sso-error')).toContainText('Could not reach Test IdP');
  await page.screenshot({ path: `${SHOTS}login-provider-down.png` });
  await page.getByRole('button', { name: 'Admin sign-in' }).click();
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.changed);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});
