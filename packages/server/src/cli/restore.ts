import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { DATABASE_FILE } from '../db/database.js';
import { KEY_FILE } from '../platform/secret-box.js';
import { extractArchive } from './archive-read.js';
import { ARCHIVED_FILES, latestKnownSchema, type Manifest } from './archive-format.js';
import type { Output } from './cli-args.js';
import { CliFailure, RestoreRefused } from './cli-errors.js';
import { isDatabaseInUse } from './instance-lock.js';
import { checkExtracted } from './restore-checks.js';

/** What a restore replaces: the database with its WAL files, and the key. */
const REPLACED_FILES = [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, KEY_FILE];

export interface RestoreOptions {
  file: string;
  passphrase: string | null;
  dataDir: string;
  /** The aside folder's date (tests). */
  now?: Date;
}

function refuseIfRunning(dataDir: string): void {
  if (isDatabaseInUse(dataDir)) {
    throw new CliFailure(`Cannot restore while Berth is running on ${dataDir}: stop it first`);
  }
}

/** A new folder named after the time, e.g. before-restore-2026-12-04T01-52-03Z. */
function asideFolder(dataDir: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  for (let n = 1; ; n++) {
    const path = join(dataDir, `before-restore-${stamp}${n === 1 ? '' : `-${n}`}`);
    if (!existsSync(path)) {
      mkdirSync(path, { mode: 0o700 });
      return path;
    }
  }
}

function moveAll(names: readonly string[], from: string, to: string): void {
  for (const name of names) renameSync(join(from, name), join(to, name));
}

/**
 * Moves the current files aside and the extracted ones in (renames within one file system);
 * when the second half fails, the current files go back. Answers the aside folder, or null
 * when the data directory held none of them.
 */
function swapIn(dataDir: string, staging: string, now: Date): string | null {
  const present = REPLACED_FILES.filter((name) => existsSync(join(dataDir, name)));
  if (present.length === 0) {
    moveAll(ARCHIVED_FILES, staging, dataDir);
    return null;
  }
  const aside = asideFolder(dataDir, now);
  moveAll(present, dataDir, aside);
  try {
    moveAll(ARCHIVED_FILES, staging, dataDir);
  } catch (err) {
    moveAll(present, aside, dataDir);
    throw err;
  }
  return aside;
}

/** Run as root (docker exec -u 0), the files still belong to the data directory's owner. */
function keepOwner(dataDir: string): void {
  const owner = statSync(dataDir);
  if (process.getuid?.() !== 0 || owner.uid === 0) return;
  for (const name of ARCHIVED_FILES) chownSync(join(dataDir, name), owner.uid, owner.gid);
}

function report(
  file: string,
  dataDir: string,
  manifest: Manifest,
  aside: string | null,
  out: Output,
) {
  out.log(
    `Restored ${file} into ${dataDir}: made by Berth ${manifest.berth_version} at ${manifest.created_at}, schema ${manifest.schema}`,
  );
  out.log(
    aside === null
      ? 'The data directory held no database or key: nothing was replaced'
      : `The replaced files are in ${aside}`,
  );
  if (manifest.schema < latestKnownSchema()) {
    out.log(`Berth brings the database up to schema ${latestKnownSchema()} when it starts`);
  }
}

/**
 * `berth restore FILE`: checks the whole backup in a folder of the data directory before it
 * touches anything (a Berth backup, passphrase, completeness, schema, integrity), then swaps
 * the files in, keeping the replaced ones aside. Refuses while a server has the database open.
 */
export async function restore(options: RestoreOptions, out: Output): Promise<void> {
  const file = resolve(options.file);
  const { dataDir } = options;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  refuseIfRunning(dataDir);
  const staging = mkdtempSync(join(dataDir, '.restore-'));
  try {
    let manifest: Manifest;
    try {
      manifest = await extractArchive(file, staging, options.passphrase);
      checkExtracted(staging);
    } catch (err) {
      if (err instanceof RestoreRefused)
        throw new CliFailure(`Cannot restore ${file}: ${err.message}`);
      throw err;
    }
    // Checked again: a server may have started while the archive was read.
    refuseIfRunning(dataDir);
    const aside = swapIn(dataDir, staging, options.now ?? new Date());
    keepOwner(dataDir);
    report(file, dataDir, manifest, aside, out);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
