import { createServer } from 'node:net';
import type {
  AuditResponse,
  CreatedUser,
  SsoLoginInfo,
  SsoSettingsUpdate,
  SsoSettingsView,
  SsoTestResult,
  UsersResponse,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listenOnLoopback } from '../../test/listen.js';
import { CookieBrowser, startOidcProvider, type TestProvider } from '../../test/oidc-provider.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

const CLIENT = { clientId: 'berth', clientSecret: 'provider-secret-1' };

let t: TestApp;
let berth: string;
let provider: TestProvider;
let admin: string;

beforeAll(async () => {
  t = await buildTestApp();
  berth = await listenOnLoopback(t.app);
  provider = await startOidcProvider({
    ...CLIENT,
    redirectUris: [`${berth}/api/v2/auth/sso/callback`],
  });
  admin = await signedInCookie(t.app);
});
afterAll(async () => {
  await provider.close();
  await t.close();
});

const settings = (over: Partial<SsoSettingsUpdate> = {}): SsoSettingsUpdate => ({
  enabled: true,
  display_name: 'Test IdP',
  issuer_url: provider.issuer,
  client_id: CLIENT.clientId,
  client_secret: CLIENT.clientSecret,
  scopes: 'openid profile email groups',
  username_claim: 'preferred_username',
  role_claim: 'groups',
  admin_values: ['berth-admins'],
  operator_values: ['berth-ops'],
  viewer_values: ['berth-viewers'],
  default_role: 'refuse',
  auto_create: true,
  password_sign_in_disabled: false,
  ...over,
});

async function configure(over: Partial<SsoSettingsUpdate> = {}) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v2/auth/sso/settings',
    headers: { cookie: admin },
    payload: settings(over),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SsoSettingsView>();
}

const CALLBACK = () => `${berth}/api/v2/auth/sso/callback`;

/** Starts at Berth, signs in at the provider's forms, and stops before the callback. */
async function toCallback(
  login: string,
  browser = new CookieBrowser(),
  tamper?: (url: URL) => void,
) {
  let page = await browser.go(`${berth}/api/v2/auth/sso/start`, {}, tamper && provider.issuer);
  if (tamper !== undefined) {
    expect(page.location).toMatch(new RegExp(`^${provider.issuer}/auth\\?`));
    const url = new URL(page.location ?? '');
    tamper(url);
    page = await browser.go(url.toString(), {}, CALLBACK());
  }
  expect(page.body).toContain('name="login"');
  const consent = await browser.submit(page, { login, password: 'any' }, CALLBACK());
  const done =
    consent.location?.startsWith(CALLBACK()) === true
      ? consent
      : await browser.submit(consent, {}, CALLBACK());
  expect(done.location).toMatch(/\/api\/v2\/auth\/sso\/callback\?/);
  return { browser, callback: done.location ?? '' };
}

/** A whole sign-on: the answer to the callback, the session (or none) and the login page's reason. */
async function signOn(login: string, groups: string[]) {
  provider.accounts.set(login, { groups });
  const { browser, callback } = await toCallback(login);
  return finishAt(browser, callback);
}

async function finishAt(browser: CookieBrowser, callback: string) {
  const answer = await browser.go(callback, {}, `${berth}/login`);
  const session = browser.cookie('berth_session');
  const info = await browser.go(`${berth}/api/v2/auth/sso`);
  // Shown once: the next look has no reason.
  expect(JSON.parse((await browser.go(`${berth}/api/v2/auth/sso`)).body)).toMatchObject({
    error: null,
  });
  const role =
    session === undefined
      ? null
      : (
          await t.app.inject({
            method: 'GET',
            url: '/api/v2/auth/me',
            headers: { cookie: `berth_session=${session}` },
          })
        ).json<{ user: { role: string; username: string } }>().user.role;
  return { answer, session, role, reason: JSON.parse(info.body) as SsoLoginInfo };
}

const audit = async (action: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/audit?action=${action}&limit=50`,
    headers: { cookie: admin },
  });
  return res.json<AuditResponse>().entries;
};

describe('single sign-on with a real OpenID provider', () => {
  it('keeps the client secret sealed, names bad fields, and tests discovery', async () => {
    const view = await configure();
    expect(view.settings.client_secret).toBe('********');
    // Built from the request: inject speaks as localhost; a browser gets its own address.
    expect(view.redirect_uri).toBe('http://localhost:80/api/v2/auth/sso/callback');
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/v2/auth/sso/settings',
      headers: { cookie: admin },
    });
    expect(read.body).not.toContain(CLIENT.clientSecret);
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/auth/sso/settings',
      headers: { cookie: admin },
      payload: settings({ issuer_url: 'http://idp.example.com' }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).toMatch(/^Issuer URL must be https:\/\//);
    const test = async (issuer_url: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v2/auth/sso/test',
          headers: { cookie: admin },
          payload: { issuer_url },
        })
      ).json<SsoTestResult>();
    const found = await test(provider.issuer);
    expect(found).toMatchObject({ ok: true, issuer: provider.issuer, pkce_s256: true });
    expect(found.claims_supported).toContain('groups');
    const down = await test(`http://127.0.0.1:${await closedPort()}`);
    expect(down.ok).toBe(false);
    expect(down.error).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it('signs on through the provider forms with the role its groups map to, audited', async () => {
    await configure();
    const info = await new CookieBrowser().go(`${berth}/api/v2/auth/sso`);
    expect(JSON.parse(info.body)).toEqual({
      enabled: true,
      name: 'Test IdP',
      password_sign_in: true,
      error: null,
    });
    const alice = await signOn('alice', ['staff', 'berth-admins']);
    expect(alice.answer.status).toBe(200);
    expect(alice.answer.body).toContain('url=/');
    expect(alice.role).toBe('admin');
    const bob = await signOn('bob', ['berth-ops']);
    expect(bob.role).toBe('operator');
    const vera = await signOn('vera', ['berth-viewers', 'other']);
    expect(vera.role).toBe('viewer');
    const rows = await audit('auth.sso.login');
    expect(rows.filter((r) => r.ok).map((r) => r.actor)).toEqual(
      expect.arrayContaining(['alice', 'bob', 'vera']),
    );
  });

  it('re-reads the role at every sign-on: out of the admin group, out of admin', async () => {
    await configure();
    expect((await signOn('dora', ['berth-admins'])).role).toBe('admin');
    const changed = vi.spyOn(t.app.services.hub, 'userChanged');
    expect((await signOn('dora', ['berth-ops'])).role).toBe('operator');
    // Dora's sockets still open elsewhere follow the new role without a reconnect.
    expect(changed).toHaveBeenCalledTimes(1);
    changed.mockRestore();
    const rows = await audit('auth.sso.role');
    expect(rows.map((r) => r.target)).toContain('dora: admin → operator');
  });

  it('refuses an account no group maps, unless a default role is set', async () => {
    await configure();
    const nobody = await signOn('nora', ['elsewhere']);
    expect(nobody.session).toBeUndefined();
    expect(nobody.answer.status).toBe(302);
    expect(nobody.reason.error).toMatch(/has no Berth role/);
    await configure({ default_role: 'viewer' });
    expect((await signOn('nora', ['elsewhere'])).role).toBe('viewer');
    const failed = (await audit('auth.sso.login')).filter((r) => !r.ok);
    expect(failed.some((r) => r.actor === 'nora' && /no Berth role/.test(r.error ?? ''))).toBe(
      true,
    );
  });

  it('refuses a tampered state, a tampered nonce and a tampered code', async () => {
    await configure();
    provider.accounts.set('tess', { groups: ['berth-ops'] });
    const state = await toCallback('tess');
    const badState = new URL(state.callback);
    badState.searchParams.set('state', 'forged-state');
    const a = await finishAt(state.browser, badState.toString());
    expect(a.session).toBeUndefined();
    expect(a.reason.error).toMatch(/state/);

    // The nonce of the authorization request changed on its way: the ID token carries it.
    const nonce = await toCallback('tess', new CookieBrowser(), (url) =>
      url.searchParams.set('nonce', 'forged-nonce'),
    );
    const b = await finishAt(nonce.browser, nonce.callback);
    expect(b.session).toBeUndefined();
    expect(b.reason.error).toMatch(/nonce/);

    const code = await toCallback('tess');
    const badCode = new URL(code.callback);
    badCode.searchParams.set('code', 'forged-code');
    const c = await finishAt(code.browser, badCode.toString());
    expect(c.session).toBeUndefined();
    expect(c.reason.error).toMatch(/invalid_grant|refused/);

    // A callback replayed without the flow cookie (used once) is refused too.
    const replay = await toCallback('tess');
    const first = await finishAt(replay.browser, replay.callback);
    expect(first.role).toBe('operator');
    const again = await finishAt(new CookieBrowser(), replay.callback);
    expect(again.session).toBeUndefined();
    expect(again.reason.error).toMatch(/no sign-in under way/);
  });

  it('says on the login page why a provider that is down failed; passwords still sign in', async () => {
    await configure({ issuer_url: `http://127.0.0.1:${await closedPort()}` });
    const browser = new CookieBrowser();
    const start = await browser.go(`${berth}/api/v2/auth/sso/start`, {}, `${berth}/login`);
    expect(start.status).toBe(302);
    expect(start.location).toBe(`${berth}/login`);
    const info = JSON.parse((await browser.go(`${berth}/api/v2/auth/sso`)).body) as SsoLoginInfo;
    expect(info.error).toMatch(/^Could not reach Test IdP .*(ECONNREFUSED|fetch failed)/);
    const password = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: 'admin', password: 'changed-pass-2' },
    });
    expect(password.statusCode).toBe(200);
  });

  it('with auto-create off, refuses an unknown account and links a Berth user of its name', async () => {
    await configure({ auto_create: false });
    const stranger = await signOn('stranger', ['berth-ops']);
    expect(stranger.session).toBeUndefined();
    expect(stranger.reason.error).toMatch(/No Berth user is named "stranger"/);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: admin },
      payload: { username: 'stranger', role: 'viewer' },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json<CreatedUser>().user).toMatchObject({ sso_linked: false, two_factor: false });
    // Known now: linked by name, and the claim decides the role.
    expect((await signOn('stranger', ['berth-ops'])).role).toBe('operator');
    const listed = (
      await t.app.inject({ method: 'GET', url: '/api/users', headers: { cookie: admin } })
    ).json<UsersResponse>().users;
    expect(listed.find((u) => u.username === 'stranger')?.sso_linked).toBe(true);
  });

  it('refuses a disabled Berth user and keeps the last enabled admin', async () => {
    await configure();
    expect((await signOn('dana', ['berth-viewers'])).role).toBe('viewer');
    const users = (
      await t.app.inject({ method: 'GET', url: '/api/users', headers: { cookie: admin } })
    ).json<{ users: { id: number; username: string }[] }>().users;
    const dana = users.find((u) => u.username === 'dana');
    await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${dana?.id}`,
      headers: { cookie: admin },
      payload: { disabled: true },
    });
    const refused = await signOn('dana', ['berth-viewers']);
    expect(refused.session).toBeUndefined();
    expect(refused.reason.error).toBe('This Berth account is disabled');

    // The bootstrap admin signs on by name; demoting Berth's last enabled admin is refused.
    // (alice and dora above were admins once: only the bootstrap admin and alice are now.)
    for (const name of ['alice']) {
      expect((await signOn(name, ['berth-ops'])).role).toBe('operator');
    }
    const last = await signOn('admin', ['berth-ops']);
    expect(last.session).toBeUndefined();
    expect(last.reason.error).toMatch(/last admin/);
    // Refused before a change: the admin's password (break-glass) still signs in.
    const password = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: 'admin', password: 'changed-pass-2' },
    });
    expect(password.statusCode).toBe(200);
    expect((await signOn('admin', ['berth-admins'])).role).toBe('admin');
  });

  it('says the provider refused when the user cancels there; a crafted error link shows nothing of its own', async () => {
    await configure();
    const browser = new CookieBrowser();
    const login = await browser.go(`${berth}/api/v2/auth/sso/start`, {}, CALLBACK());
    const abort = /<a href="([^"]+)">\[ Cancel \]<\/a>/.exec(login.body)?.[1] ?? '';
    const back = await browser.go(new URL(abort, login.url).toString(), {}, CALLBACK());
    const cancelled = await finishAt(browser, back.location ?? '');
    expect(cancelled.session).toBeUndefined();
    expect(cancelled.reason.error).toMatch(/^The provider refused the sign-in: access_denied/);

    // Mid sign-on, a link to the callback with an error of someone else's words and no state.
    const victim = new CookieBrowser();
    await victim.go(`${berth}/api/v2/auth/sso/start`, {}, provider.issuer);
    const crafted = await finishAt(
      victim,
      `${CALLBACK()}?error=access_denied&error_description=Call+0800+to+unlock`,
    );
    expect(crafted.reason.error).toMatch(/\(state\)/);
    expect(crafted.reason.error).not.toContain('0800');
  });

  it('with password sign-in off, only admins keep their password', async () => {
    await configure({ password_sign_in_disabled: true });
    const info = await new CookieBrowser().go(`${berth}/api/v2/auth/sso`);
    expect((JSON.parse(info.body) as SsoLoginInfo).password_sign_in).toBe(false);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: admin },
      payload: { username: 'pat', role: 'operator' },
    });
    const { password } = made.json<{ password: string }>();
    const pat = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: 'pat', password },
    });
    expect(pat.statusCode).toBe(403);
    expect(pat.json<{ detail: string }>().detail).toBe(
      'Password sign-in is disabled: use "Sign in with Test IdP"',
    );
    const admin2 = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: 'admin', password: 'changed-pass-2' },
    });
    expect(admin2.statusCode).toBe(200);
    await configure({ password_sign_in_disabled: false });
  });

  // Last: it leaves this address over its limit of failed starts for ten minutes.
  it('tells an address that keeps failing to start to wait, without asking the provider', async () => {
    await configure({ issuer_url: `http://127.0.0.1:${await closedPort()}` });
    const browser = new CookieBrowser();
    const reasons: (string | null)[] = [];
    // The provider-down test above failed once from this address already.
    for (let i = 0; i < 31 && reasons.at(-1)?.startsWith('Too many') !== true; i++) {
      await browser.go(`${berth}/api/v2/auth/sso/start`, {}, `${berth}/login`);
      const info = await browser.go(`${berth}/api/v2/auth/sso`);
      reasons.push((JSON.parse(info.body) as SsoLoginInfo).error);
    }
    expect(reasons.length).toBe(30);
    expect(reasons.at(-2)).toMatch(/^Could not reach/);
    expect(reasons.at(-1)).toBe('Too many failed sign-in attempts. Please try again later.');
  });
});

/** A loopback port nothing listens on: a provider that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
