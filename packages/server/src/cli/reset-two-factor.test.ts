import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { createAuthStore } from '../modules/auth/index.js';
import { createTwoFactorStore } from '../modules/two-factor/index.js';
import { CliFailure } from './cli-errors.js';
import { resetTwoFactor } from './reset-two-factor.js';

let dir: string;
const lines: string[] = [];
const out = { log: (line: string) => lines.push(line), warn: (line: string) => lines.push(line) };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'berth-cli-2fa-'));
  lines.length = 0;
  const db = openDatabase(dir);
  await migrateToLatest(db);
  const id = await createAuthStore(db).insertUser({
    username: 'root',
    password_hash: 'x',
    now: '',
  });
  const store = createTwoFactorStore(db);
  await store.startPending(id, 'v1:sealed', '');
  await store.enable(id, 1, ['hash'], '');
  await db.destroy();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("turns off a user's two-factor sign-in, and says so when there was none", async () => {
  await resetTwoFactor({ username: 'root', dataDir: dir }, out);
  await resetTwoFactor({ username: 'root', dataDir: dir }, out);
  expect(lines).toEqual([
    'Two-factor sign-in is off for "root": they sign in with their password and set it up again (at once, if their role requires it)',
    '"root" had no two-factor sign-in',
  ]);
  const db = openDatabase(dir);
  expect(await createTwoFactorStore(db).isEnabled(1)).toBe(false);
  await db.destroy();
});

it('names the users there are for an unknown one, and a missing database', async () => {
  await expect(resetTwoFactor({ username: 'nobody', dataDir: dir }, out)).rejects.toThrow(
    new CliFailure('No user named "nobody" (users: "root")'),
  );
  await expect(
    resetTwoFactor({ username: 'root', dataDir: join(dir, 'none') }, out),
  ).rejects.toBeInstanceOf(CliFailure);
});
