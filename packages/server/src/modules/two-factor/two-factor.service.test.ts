import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { User } from '@berth/contracts';
import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../db/database.js';
import { SecretBox } from '../../platform/secret-box.js';
import { createAuthStore } from '../auth/index.js';
import { createSettingsStore } from '../settings/index.js';
import { TwoFactorService } from './two-factor.service.js';
import { createTwoFactorStore } from './two-factor.store.js';

const START = Date.parse('2026-12-04T12:00:00Z');
let dir: string;
let db: Db;
let clock: number;
let passwordChecks: string[];
let service: TwoFactorService;
let user: User;

const codeAt = (secret: string, ms = clock) => generate({ secret, epoch: Math.floor(ms / 1000) });

const newService = () =>
  new TwoFactorService({
    store: createTwoFactorStore(db),
    box: SecretBox.open(dir),
    settings: createSettingsStore(db),
    checkPassword: (_id, password) => {
      passwordChecks.push(password);
      return Promise.resolve(password === 'right-password');
    },
    userExists: async (id) => (await createAuthStore(db).findUserById(id)) !== undefined,
    now: () => clock,
  });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'berth-2fa-'));
  db = openDatabase(dir);
  await migrateToLatest(db);
  const id = await createAuthStore(db).insertUser({
    username: 'alice',
    password_hash: 'x',
    now: new Date(START).toISOString(),
  });
  user = {
    id,
    username: 'alice',
    display_name: null,
    is_first_login: false,
    role: 'operator',
    host_tags: [],
  };
  clock = START;
  passwordChecks = [];
  service = newService();
  await service.load();
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Enrols alice; answers her secret and recovery codes. */
async function enrolled() {
  const { secret } = await service.startEnrolment(user);
  const codes = await service.confirm(user, await codeAt(secret));
  clock += 30_000; // the confirming code's step is used up
  return { secret, codes };
}

describe('enrolment', () => {
  it('gives a secret, its otpauth URI and a QR code, and is pending until a code confirms it', async () => {
    const enrolment = await service.startEnrolment(user);
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.otpauth_uri).toContain('otpauth://totp/Berth:alice?');
    expect(enrolment.otpauth_uri).toContain(`secret=${enrolment.secret}`);
    expect(enrolment.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect((await service.status(user, 'password')).enabled).toBe(false);
    // Not on yet: sign-in asks nothing.
    expect(await service.verifySignIn(user, undefined)).toBe('ok');

    await expect(service.confirm(user, '000000')).rejects.toMatchObject({ statusCode: 400 });
    const codes = await service.confirm(user, await codeAt(enrolment.secret));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const status = await service.status(user, 'password');
    expect(status).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    await expect(service.startEnrolment(user)).rejects.toMatchObject({ statusCode: 409 });
  });

  it('keeps the secret sealed and the recovery codes only hashed', async () => {
    const { secret, codes } = await enrolled();
    const row = await db
      .selectFrom('two_factor' as never)
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(row)).toMatch(/"secret":"v1:/);
    const stored = JSON.stringify(
      await db
        .selectFrom('two_factor_recovery_codes' as never)
        .selectAll()
        .execute(),
    );
    for (const code of codes) expect(stored).not.toContain(code);
  });
});

describe('sign-in', () => {
  it('asks for a code, takes a current one once and refuses it replayed within its window', async () => {
    const { secret } = await enrolled();
    expect(await service.verifySignIn(user, undefined)).toBe('missing');
    expect(await service.verifySignIn(user, '123')).toBe('wrong');
    const code = await codeAt(secret);
    expect(await service.verifySignIn(user, code)).toBe('ok');
    // Still inside its 30 s (and the one-step tolerance): a replay is refused.
    expect(await service.verifySignIn(user, code)).toBe('wrong');
    clock += 20_000;
    expect(await service.verifySignIn(user, code)).toBe('wrong');
    // The next step's code works, and an earlier step's code no longer does.
    clock += 10_000;
    const previous = await codeAt(secret, clock - 30_000);
    expect(await service.verifySignIn(user, await codeAt(secret))).toBe('ok');
    expect(await service.verifySignIn(user, previous)).toBe('wrong');
  });

  it('takes a code one step off either way (a phone clock a little off), not two', async () => {
    const { secret } = await enrolled();
    expect(await service.verifySignIn(user, await codeAt(secret, clock + 60_000))).toBe('wrong');
    expect(await service.verifySignIn(user, await codeAt(secret, clock + 30_000))).toBe('ok');
  });

  it('of two sign-ins racing with the same code, lets one through', async () => {
    const { secret } = await enrolled();
    const code = await codeAt(secret);
    const verdicts = await Promise.all([
      service.verifySignIn(user, code),
      service.verifySignIn(user, code),
    ]);
    expect(verdicts.sort()).toEqual(['ok', 'wrong']);
  });

  it('takes each recovery code once, however it is typed', async () => {
    const { codes } = await enrolled();
    const [first = '', second = ''] = codes;
    expect(await service.verifySignIn(user, first)).toBe('ok');
    expect(await service.verifySignIn(user, first)).toBe('wrong');
    expect(await service.verifySignIn(user, ` ${second.replace(/-/g, '').toUpperCase()} `)).toBe(
      'ok',
    );
    expect((await service.status(user, 'password')).recovery_codes_left).toBe(8);
  });
});

describe('disable, regenerate, reset', () => {
  it('turns off with the password or a current code, not a wrong one', async () => {
    const { secret } = await enrolled();
    await expect(service.disable(user, {}, '::1')).rejects.toMatchObject({ statusCode: 400 });
    await expect(
      service.disable(user, { password: 'wrong-password' }, '::1'),
    ).rejects.toMatchObject({ statusCode: 400, message: 'password: Incorrect password' });
    await expect(service.disable(user, { code: '000000' }, '::1')).rejects.toMatchObject({
      statusCode: 400,
      message: 'code: Invalid code',
    });
    await service.disable(user, { code: await codeAt(secret) }, '::1');
    expect((await service.status(user, 'password')).enabled).toBe(false);
    expect(await service.verifySignIn(user, undefined)).toBe('ok');

    await enrolled();
    await service.disable(user, { password: 'right-password' }, '::1');
    expect(passwordChecks).toEqual(['wrong-password', 'right-password']);
    expect(
      await db
        .selectFrom('two_factor_recovery_codes' as never)
        .selectAll()
        .execute(),
    ).toEqual([]);
  });

  it('refuses to turn off while the role requires it', async () => {
    await enrolled();
    await service.setPolicy({ required_roles: ['operator'] });
    await expect(
      service.disable(user, { password: 'right-password' }, '::1'),
    ).rejects.toMatchObject({ statusCode: 409 });
  });

  it('regenerates recovery codes for a current code; the old ones stop working', async () => {
    const { secret, codes } = await enrolled();
    await expect(service.regenerateRecoveryCodes(user, '000000')).rejects.toMatchObject({
      statusCode: 400,
    });
    const fresh = await service.regenerateRecoveryCodes(user, await codeAt(secret));
    expect(fresh).toHaveLength(10);
    expect(await service.verifySignIn(user, codes[0])).toBe('wrong');
    expect(await service.verifySignIn(user, fresh[0])).toBe('ok');
  });

  it('limits wrong codes on the account routes to five in 15 minutes', async () => {
    const { secret } = await enrolled();
    for (let i = 0; i < 5; i++) {
      await expect(service.regenerateRecoveryCodes(user, '000000')).rejects.toMatchObject({
        statusCode: 400,
      });
    }
    await expect(service.regenerateRecoveryCodes(user, await codeAt(secret))).rejects.toMatchObject(
      { statusCode: 429 },
    );
    clock += 15 * 60_000 + 1;
    expect(await service.regenerateRecoveryCodes(user, await codeAt(secret))).toHaveLength(10);
  });

  it("lets an admin reset a user's two-factor; an unknown user is 404", async () => {
    await enrolled();
    await service.reset(user.id);
    expect((await service.status(user, 'password')).enabled).toBe(false);
    await expect(service.reset(999)).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('required roles', () => {
  it('holds a password session of a required role until it enrols; never single sign-on', async () => {
    expect(await service.hold(user, 'password')).toBeNull();
    await service.setPolicy({ required_roles: ['operator', 'operator', 'admin'] });
    expect(service.policy()).toEqual({ required_roles: ['admin', 'operator'] });
    expect(await service.hold(user, 'password')).toMatchObject({
      code: 'two_factor_enrolment_required',
    });
    expect(await service.hold(user, 'sso')).toBeNull();
    expect(await service.hold({ ...user, role: 'viewer' }, 'password')).toBeNull();
    expect((await service.status(user, 'password')).enrolment_required).toBe(true);
    expect((await service.status(user, 'sso')).enrolment_required).toBe(false);
    await enrolled();
    expect(await service.hold(user, 'password')).toBeNull();
  });

  it('keeps the policy across a restart', async () => {
    await service.setPolicy({ required_roles: ['viewer'] });
    const again = newService();
    await again.load();
    expect(again.policy()).toEqual({ required_roles: ['viewer'] });
  });
});
