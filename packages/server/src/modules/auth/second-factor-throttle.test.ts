import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../db/database.js';
import { AuthService } from './auth.service.js';
import { createAuthStore } from './auth.store.js';
import { LoginThrottle, DEFAULT_LOGIN_LIMITS } from './login-throttle.js';
import { hashPassword } from './password.js';

const CLIENT = { address: '192.0.2.9', userAgent: null };
const RIGHT_CODE = '246810';
let dir: string;
let db: Db;
let auth: AuthService;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'berth-2fa-throttle-'));
  db = openDatabase(dir);
  await migrateToLatest(db);
  const store = createAuthStore(db);
  await store.insertUser({
    username: 'ann',
    password_hash: await hashPassword('pw-123456'),
    now: '',
  });
  // The username's growing delay is the throttle's own test; here only the counts matter.
  const throttle = new LoginThrottle(DEFAULT_LOGIN_LIMITS, Date.now, () => Promise.resolve());
  auth = new AuthService(store, {} as FastifyBaseLogger, { loginThrottle: throttle });
  auth.useSignInChecks({
    secondFactor: (_user, code) =>
      Promise.resolve(code === undefined ? 'missing' : code === RIGHT_CODE ? 'ok' : 'wrong'),
  });
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const attempt = (code?: string) =>
  auth.login('ann', 'pw-123456', CLIENT, code).then(
    () => 200,
    (err: unknown) => (err as { statusCode: number }).statusCode,
  );

it('counts wrong codes like wrong passwords: the address gets 429 after 20', async () => {
  for (let i = 0; i < 20; i++) expect(await attempt('000000')).toBe(401);
  expect(await attempt(RIGHT_CODE)).toBe(429);
});

it('does not count a right password sent without its code', async () => {
  for (let i = 0; i < 30; i++) expect(await attempt()).toBe(401);
  expect(await attempt(RIGHT_CODE)).toBe(200);
});
