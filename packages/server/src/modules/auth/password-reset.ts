import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { createAuthStore } from './auth.store.js';
import { hashPassword } from './password.js';

export type PasswordReset = { ok: true; password: string } | { ok: false; usernames: string[] };

/**
 * The answer to a forgotten password, from the machine Berth runs on: a new random password
 * that works once (the user must change it at the next sign-in), and every session of the
 * user ended, so whoever held one is signed out. Unknown users: the names there are.
 */
export async function resetPassword(
  db: Db,
  username: string,
  now = new Date(),
): Promise<PasswordReset> {
  const store = createAuthStore(db);
  const user = await store.findUserByName(username);
  if (user === undefined) return { ok: false, usernames: await store.listUsernames() };
  const password = randomBytes(12).toString('base64url');
  const hash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const inTrx = createAuthStore(trx);
    await inTrx.setOneTimePassword(user.id, hash, now.toISOString());
    await inTrx.deleteSessionsOf(user.id);
  });
  return { ok: true, password };
}
