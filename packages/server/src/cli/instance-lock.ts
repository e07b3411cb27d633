import { existsSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { DATABASE_FILE } from '../db/database.js';

/**
 * True while a process has the data directory's database open, as Berth's server does for its
 * whole life. Its connection (WAL mode) holds SQLite's shared lock on the file, a POSIX record
 * lock that the kernel keeps per file, not per mount or pid namespace: two containers sharing
 * the volume see each other's, where a pid file would not (pids repeat across containers).
 * An exclusive lock asked for without waiting is refused then; a process killed with -9 holds
 * nothing. A file that is not a database cannot be in use by a server either.
 */
export function isDatabaseInUse(dataDir: string): boolean {
  const path = join(dataDir, DATABASE_FILE);
  if (!existsSync(path)) return false;
  const db = new SQLite(path, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
  } finally {
    db.close();
  }
}
