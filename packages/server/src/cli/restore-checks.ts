import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { DATABASE_FILE } from '../db/database.js';
import { SecretBox } from '../platform/secret-box.js';
import { checkSchemaKnown } from './archive-format.js';
import { RestoreRefused } from './cli-errors.js';

/** Every migration applied to the database; a file that is not Berth's fails here. */
function appliedMigrations(db: SQLite.Database): string[] {
  try {
    return db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
  } catch {
    throw new RestoreRefused('damaged (its database is not a Berth database)');
  }
}

/** The first problem SQLite's integrity check finds, or null. */
function integrityProblem(db: SQLite.Database): string | null {
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    const first = rows[0]?.integrity_check ?? 'no answer';
    return first === 'ok' ? null : first;
  } catch (err) {
    // A page too damaged to walk fails the check itself ("database disk image is malformed").
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * The extracted database opens, holds no migration this Berth does not know, and passes
 * SQLite's integrity check; the key file holds a key.
 */
export function checkExtracted(dir: string): void {
  let db: SQLite.Database;
  try {
    db = new SQLite(join(dir, DATABASE_FILE), { fileMustExist: true });
  } catch {
    throw new RestoreRefused('damaged (its database cannot be opened)');
  }
  try {
    for (const name of appliedMigrations(db)) checkSchemaKnown(name);
    const first = integrityProblem(db);
    if (first !== null) {
      throw new RestoreRefused(`damaged (its database fails SQLite's integrity check: ${first})`);
    }
  } finally {
    db.close();
  }
  try {
    SecretBox.open(dir);
  } catch {
    throw new RestoreRefused('damaged (its secret.key does not hold a key)');
  }
}
