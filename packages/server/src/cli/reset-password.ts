import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, openDatabase } from '../db/database.js';
import { resetPassword as resetUserPassword } from '../modules/auth/index.js';
import type { Output } from './cli-args.js';
import { CliFailure } from './cli-errors.js';

/**
 * `berth reset-password USER`: prints a new one-time password. Works while the server runs
 * (SQLite waits up to its busy timeout for the server's write lock); the server reads users
 * and sessions from the database on every request, so the old sessions stop at once.
 */
export async function resetPassword(
  options: { username: string; dataDir: string },
  out: Output,
): Promise<void> {
  if (!existsSync(join(options.dataDir, DATABASE_FILE))) {
    throw new CliFailure(`Cannot reset the password: no Berth database in ${options.dataDir}`);
  }
  const db = openDatabase(options.dataDir);
  try {
    const result = await resetUserPassword(db, options.username);
    if (!result.ok) {
      const known = result.usernames.map((name) => JSON.stringify(name)).join(', ');
      throw new CliFailure(`No user named ${JSON.stringify(options.username)} (users: ${known})`);
    }
    out.log(`New password for ${JSON.stringify(options.username)}: ${result.password}`);
    out.log(
      'It works once: Berth asks for a new password at the next sign-in. The user was signed out everywhere',
    );
  } finally {
    await db.destroy();
  }
}
