import type {
  CreatedApiKey,
  RecoveryCodes,
  TwoFactorEnrolment,
  UsersResponse,
} from '@berth/contracts';
import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  signedInCookie,
  type TestApp,
} from '../../test/test-app.js';
import { USER_PASSWORD, userSignedIn } from '../../test/users.js';

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await buildTestApp();
  admin = await signedInCookie(t.app);
});
afterEach(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie?: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: cookie === undefined ? {} : { cookie },
    ...(payload !== undefined && { payload }),
  });

const signIn = (username: string, password: string, second_factor_code?: string) =>
  call('POST', '/api/v2/auth/login', undefined, {
    username,
    password,
    ...(second_factor_code !== undefined && { second_factor_code }),
  });

/** A code of the step after `steps` steps from now: each sign-in needs a step not used yet. */
const codeIn = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function enrol(cookie: string) {
  const started = await call('POST', '/api/account/two-factor/enrol', cookie);
  expect(started.statusCode).toBe(200);
  const { secret } = started.json<TwoFactorEnrolment>();
  const confirmed = await call('POST', '/api/account/two-factor/confirm', cookie, {
    code: await codeIn(secret),
  });
  expect(confirmed.statusCode).toBe(200);
  return { secret, codes: confirmed.json<RecoveryCodes>().recovery_codes };
}

describe('two-factor sign-in over HTTP', () => {
  it('asks for the code after the password, takes it once, and takes a recovery code', async () => {
    const { secret, codes } = await enrol(admin);
    const status = await call('GET', '/api/account/two-factor', admin);
    expect(status.json()).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    // Settings → Users shows who signs in with a second factor.
    const listed = (await call('GET', '/api/users', admin)).json<UsersResponse>().users;
    expect(listed.find((u) => u.username === 'admin')).toMatchObject({
      two_factor: true,
      sso_linked: false,
    });

    const missing = await signIn('admin', CHANGED_PASSWORD);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({
      detail: 'Two-factor code required',
      code: 'second_factor_required',
    });
    const wrong = await signIn('admin', CHANGED_PASSWORD, '000000');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Invalid two-factor code' });

    const next = await codeIn(secret, 1);
    expect((await signIn('admin', CHANGED_PASSWORD, next)).statusCode).toBe(200);
    // The same code again, still within its window: refused.
    expect((await signIn('admin', CHANGED_PASSWORD, next)).statusCode).toBe(401);
    expect((await signIn('admin', CHANGED_PASSWORD, codes[0])).statusCode).toBe(200);
    expect((await signIn('admin', CHANGED_PASSWORD, codes[0])).statusCode).toBe(401);
    // A wrong password with a right code is still a wrong password.
    expect((await signIn('admin', 'not-the-password', codes[1])).json()).toEqual({
      detail: 'Invalid username or password',
    });
  });

  it('slows a username down after wrong codes, as after wrong passwords; a missing code does not count', async () => {
    await enrol(admin);
    for (let i = 0; i < 8; i++) {
      expect((await signIn('admin', CHANGED_PASSWORD)).statusCode).toBe(401);
    }
    let started = Date.now();
    expect((await signIn('admin', CHANGED_PASSWORD)).statusCode).toBe(401);
    expect(Date.now() - started).toBeLessThan(900);
    for (let i = 0; i < 5; i++) await signIn('admin', CHANGED_PASSWORD, '000000');
    started = Date.now();
    expect((await signIn('admin', CHANGED_PASSWORD, '000000')).statusCode).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('turns off with the password; regenerates codes with a current code', async () => {
    const { secret, codes } = await enrol(admin);
    const regen = await call('POST', '/api/account/two-factor/recovery-codes', admin, {
      code: await codeIn(secret, 1),
    });
    expect(regen.statusCode).toBe(200);
    expect(regen.json<RecoveryCodes>().recovery_codes).not.toContain(codes[0]);
    const bad = await call('POST', '/api/account/two-factor/disable', admin, {
      password: 'wrong-one',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: 'Incorrect password' });
    const off = await call('POST', '/api/account/two-factor/disable', admin, {
      password: CHANGED_PASSWORD,
    });
    expect(off.statusCode).toBe(200);
    expect((await signIn('admin', CHANGED_PASSWORD)).statusCode).toBe(200);
  });

  it('names the field of bad input', async () => {
    const res = await call('POST', '/api/account/two-factor/confirm', admin, { code: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Code is required' });
    const early = await call('POST', '/api/account/two-factor/confirm', admin, { code: '123456' });
    expect(early.statusCode).toBe(409);
    const policy = await call('PUT', '/api/settings/two-factor', admin, {
      required_roles: ['root'],
    });
    expect(policy.statusCode).toBe(400);
    expect(policy.json<{ detail: string }>().detail).toMatch(/^Required roles/);
  });
});

describe('roles that must use two-factor', () => {
  it('holds an operator to enrolment until they enrol; sign-out, /me and enrolment stay open', async () => {
    const op = await userSignedIn(t.app, admin, 'olga', 'operator');
    const set = await call('PUT', '/api/settings/two-factor', admin, {
      required_roles: ['operator'],
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ required_roles: ['operator'] });

    const held = await call('GET', '/api/hosts', op.cookie);
    expect(held.statusCode).toBe(403);
    expect(held.json()).toMatchObject({ code: 'two_factor_enrolment_required' });
    expect((await call('GET', '/api/v2/auth/me', op.cookie)).statusCode).toBe(200);
    const status = await call('GET', '/api/account/two-factor', op.cookie);
    expect(status.json()).toMatchObject({ required: true, enrolment_required: true });
    // The admin (a role not required) is not held.
    expect((await call('GET', '/api/hosts', admin)).statusCode).toBe(200);

    await enrol(op.cookie);
    expect((await call('GET', '/api/hosts', op.cookie)).statusCode).toBe(200);
    // Required: it cannot be turned off, but an admin can reset it (then the hold is back).
    const off = await call('POST', '/api/account/two-factor/disable', op.cookie, {
      password: USER_PASSWORD,
    });
    expect(off.statusCode).toBe(409);
    const reset = await call('POST', `/api/users/${op.id}/reset-two-factor`, admin);
    expect(reset.statusCode).toBe(200);
    expect((await call('GET', '/api/hosts', op.cookie)).statusCode).toBe(403);
    expect((await signIn('olga', USER_PASSWORD)).statusCode).toBe(200);
  });

  it('does not hold a single sign-on session: the provider owns its second factor', async () => {
    const op = await userSignedIn(t.app, admin, 'sam', 'operator');
    await call('PUT', '/api/settings/two-factor', admin, { required_roles: ['operator'] });
    await t.app.services.db
      .updateTable('sessions')
      .set({ auth_method: 'sso' })
      .where('user_id', '=', op.id)
      .execute();
    expect((await call('GET', '/api/hosts', op.cookie)).statusCode).toBe(200);
  });

  it("does not hold the user's API keys: a key never reaches the account routes anyway", async () => {
    const op = await userSignedIn(t.app, admin, 'kim', 'operator');
    const made = await call('POST', '/api/api-keys', op.cookie, { name: 'ci', scope: 'read' });
    expect(made.statusCode).toBe(201);
    const { key } = made.json<CreatedApiKey>();
    await call('PUT', '/api/settings/two-factor', admin, { required_roles: ['operator'] });
    expect((await call('GET', '/api/hosts', op.cookie)).statusCode).toBe(403);
    const byKey = await t.app.inject({
      url: '/api/hosts',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(byKey.statusCode).toBe(200);
  });

  it('keeps the policy and the reset for admins', async () => {
    const op = await userSignedIn(t.app, admin, 'vic', 'operator');
    expect((await call('GET', '/api/settings/two-factor', op.cookie)).statusCode).toBe(403);
    const put = await call('PUT', '/api/settings/two-factor', op.cookie, { required_roles: [] });
    expect(put.statusCode).toBe(403);
    const reset = await call('POST', `/api/users/${op.id}/reset-two-factor`, op.cookie);
    expect(reset.statusCode).toBe(403);
    expect((await call('POST', '/api/users/999/reset-two-factor', admin)).statusCode).toBe(404);
  });
});
