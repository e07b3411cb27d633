import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { backup } from '../cli/backup.js';
import type { Output } from '../cli/cli-args.js';
import { restore } from '../cli/restore.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { SecretBox } from '../platform/secret-box.js';

/** scrypt at 2^12: the format and its checks are the same, each derivation ~30x cheaper. */
export const CHEAP_SCRYPT = { log2N: 12, r: 8, p: 1 };
export const PASSPHRASE = 'correct horse battery staple';
/** What the commands printed, for tests to read. */
export const printed: string[] = [];
export const out: Output = { log: (l) => printed.push(l), warn: (l) => printed.push(l) };

const made: string[] = [];
export function tmp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `berth-cli-${prefix}-`));
  made.push(dir);
  return dir;
}
export function removeTemps(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A data directory as a stopped server leaves it: a migrated database with a user whose
 * display name is the sealed text 'channel-token', and its key.
 */
export async function dataDir(extraMigration?: string): Promise<string> {
  const dir = tmp('data');
  const db = openDatabase(dir);
  await migrateToLatest(db);
  const sealed = SecretBox.open(dir).seal('channel-token');
  const now = new Date().toISOString();
  await db
    .insertInto('users')
    .values({
      username: 'admin',
      display_name: sealed,
      password_hash: 'x',
      is_first_login: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  if (extraMigration !== undefined) {
    await sql`insert into kysely_migration (name, timestamp) values (${extraMigration}, ${now})`.execute(
      db,
    );
  }
  await db.destroy();
  return dir;
}

/** Every file of a folder with the SHA-256 of its bytes. */
export function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((name) => {
      const path = join(dir, name);
      const hash = statSync(path).isDirectory()
        ? 'dir'
        : createHash('sha256').update(readFileSync(path)).digest('hex');
      return [name, hash];
    }),
  );
}

export async function backupOf(dir: string, passphrase: string | null = null): Promise<string> {
  const file = join(tmp('out'), passphrase === null ? 'plain.tar' : 'encrypted.tar');
  await backup({ file, passphrase, dataDir: dir, cost: CHEAP_SCRYPT }, out);
  return file;
}

/** The restore fails with exactly `reason` and the target data directory stays as it was. */
export async function expectRefused(
  file: string,
  reason: string,
  passphrase: string | null = null,
): Promise<void> {
  const dir = await dataDir();
  const before = snapshot(dir);
  await expect(restore({ file, passphrase, dataDir: dir }, out)).rejects.toThrow(
    new RegExp(`^Cannot restore ${file}: ${reason.replace(/[()]/g, '\\$&')}$`),
  );
  expect(snapshot(dir)).toEqual(before);
}

/** A copy of `file` with its bytes changed. */
export function copyWith(file: string, change: (bytes: Buffer) => Buffer): string {
  const copy = `${file}.changed`;
  writeFileSync(copy, change(readFileSync(file)));
  return copy;
}
