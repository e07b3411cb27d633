import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, openDatabase } from '../db/database.js';
import { createAuthStore } from '../modules/auth/index.js';
import { createTwoFactorStore } from '../modules/two-factor/index.js';
import type { Output } from './cli-args.js';
import { CliFailure } from './cli-errors.js';

/**
 * `berth reset-two-factor USER`: turns off a user's two-factor sign-in from the machine Berth
 * runs on, for the one case an admin's reset in Settings → Users cannot help: the only admin
 * lost both the authenticator and the recovery codes. Works while the server runs, like
 * reset-password; sign-in reads two-factor from the database on every attempt.
 */
export async function resetTwoFactor(
  options: { username: string; dataDir: string },
  out: Output,
): Promise<void> {
  if (!existsSync(join(options.dataDir, DATABASE_FILE))) {
    throw new CliFailure(`Cannot reset two-factor: no Berth database in ${options.dataDir}`);
  }
  const db = openDatabase(options.dataDir);
  try {
    const auth = createAuthStore(db);
    const user = await auth.findUserByName(options.username);
    if (user === undefined) {
      const known = (await auth.listUsernames()).map((name) => JSON.stringify(name)).join(', ');
      throw new CliFailure(`No user named ${JSON.stringify(options.username)} (users: ${known})`);
    }
    const name = JSON.stringify(options.username);
    if (await createTwoFactorStore(db).remove(user.id)) {
      out.log(
        `Two-factor sign-in is off for ${name}: they sign in with their password and set it up again (at once, if their role requires it)`,
      );
    } else {
      out.log(`${name} had no two-factor sign-in`);
    }
  } finally {
    await db.destroy();
  }
}
