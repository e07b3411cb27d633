import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { DATABASE_FILE } from '../db/database.js';
import { readVersion } from '../modules/system/index.js';
import { KEY_FILE } from '../platform/secret-box.js';
import type { ScryptCost } from './archive-crypto.js';
import { writeArchive } from './archive-write.js';
import type { Output } from './cli-args.js';
import { CliFailure } from './cli-errors.js';

/**
 * Pages per step of SQLite's online backup: all of them, in one step. The copy then reads one
 * snapshot under one read transaction, which in WAL mode blocks no writer; in smaller steps,
 * any write the running server commits between two steps restarts the copy from the start.
 * It runs in this process, not the server's, so the server's event loop never waits on it.
 */
const PAGES_PER_STEP = 0x7fffffff;

/** Copies a (possibly running) database with SQLite's online backup; answers its schema. */
export async function copyDatabase(source: string, dest: string): Promise<string> {
  const db = new SQLite(source, { fileMustExist: true });
  try {
    await db.backup(dest, { progress: () => PAGES_PER_STEP });
  } finally {
    db.close();
  }
  const copy = new SQLite(dest, { fileMustExist: true });
  try {
    // A standalone file: no WAL beside it in the archive, any sqlite3 opens it as it is.
    copy.pragma('journal_mode = DELETE');
    const latest = copy.prepare('select max(name) as name from kysely_migration').get() as
      { name: string | null } | undefined;
    return latest?.name ?? '';
  } finally {
    copy.close();
  }
}

export interface BackupOptions {
  file: string;
  passphrase: string | null;
  dataDir: string;
  cost?: ScryptCost;
}

const sizeOf = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function checkSources(dataDir: string, target: string): void {
  if (!existsSync(join(dataDir, DATABASE_FILE))) {
    throw new CliFailure(`Cannot back up: no Berth database in ${dataDir}`);
  }
  if (!existsSync(join(dataDir, KEY_FILE))) {
    throw new CliFailure(`Cannot back up: no encryption key (${KEY_FILE}) in ${dataDir}`);
  }
  if (!existsSync(dirname(target))) {
    throw new CliFailure(`Cannot back up to ${target}: ${dirname(target)} does not exist`);
  }
  if (existsSync(target) && statSync(target).isDirectory()) {
    throw new CliFailure(`Cannot back up to ${target}: it is a directory`);
  }
}

/**
 * A backup is background work: on a small machine the server beside it, answering requests,
 * gets the CPU first (compressing and copying take a core for seconds per 100 MB).
 */
function yieldCpu(): void {
  try {
    setPriority(19);
  } catch {
    // Not allowed here (a sandbox): back up at the normal priority.
  }
}

/**
 * `berth backup FILE`: the database (SQLite's online backup, the server may keep serving) and
 * the key that opens its stored secrets, in one archive, encrypted when a passphrase is given.
 * The copy is made beside FILE (same disk as the archive, not /tmp) and removed after.
 */
export async function backup(options: BackupOptions, out: Output): Promise<void> {
  const target = resolve(options.file);
  checkSources(options.dataDir, target);
  yieldCpu();
  const started = performance.now();
  const work = mkdtempSync(join(dirname(target), '.berth-backup-'));
  try {
    const schema = await copyDatabase(
      join(options.dataDir, DATABASE_FILE),
      join(work, DATABASE_FILE),
    );
    copyFileSync(join(options.dataDir, KEY_FILE), join(work, KEY_FILE));
    chmodSync(join(work, KEY_FILE), 0o600);
    const input = {
      dir: work,
      berthVersion: readVersion(),
      schema,
      passphrase: options.passphrase,
    };
    const bytes = await writeArchive(
      options.cost === undefined ? input : { ...input, cost: options.cost },
      target,
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const how = options.passphrase === null ? '' : ', encrypted';
    out.log(`Backed up ${options.dataDir} to ${target} (${sizeOf(bytes)}${how}) in ${seconds} s`);
    if (options.passphrase === null) {
      out.warn(
        `${target} holds secrets: the encryption key, and with it every stored password, token ` +
          'and TLS key. Keep it private (it is readable by its owner only), or use --passphrase-file',
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
