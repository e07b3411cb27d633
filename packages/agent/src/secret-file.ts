import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

const SECRET_FILE = 'secret';

/** The secret in the agent's data dir; null when there is none yet (not enrolled). */
export async function readSecret(dataDir: string): Promise<string | null> {
  const stored = await readFile(join(dataDir, SECRET_FILE), 'utf8').catch(() => null);
  return stored === null || stored.trim() === '' ? null : stored.trim();
}

/**
 * Writes the secret owner-only and atomically: a new file of its own, flushed to disk, then
 * renamed over the old one, so a crash leaves either secret whole, never half of one.
 */
export async function writeSecret(dataDir: string, secret: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, SECRET_FILE);
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const file = await open(temporary, 'wx', 0o600);
  try {
    await file.writeFile(secret);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path).catch(async (err: unknown) => {
    await rm(temporary, { force: true });
    throw err;
  });
}
