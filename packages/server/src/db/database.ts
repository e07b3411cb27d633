import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import { Migrator } from 'kysely/migration';
import { startCheckpointer } from './checkpointer.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** The database's file name in the data directory (with -wal and -shm beside it). */
export const DATABASE_FILE = 'berth.db';

export interface DatabaseOptions {
  /** Where write-ahead log checkpoints run: a worker thread (Berth's), or inside commits. */
  checkpoints?: 'worker' | 'inline';
  /** Hears what the checkpoint worker reports (a failure, a fallback). */
  onCheckpointError?: (message: string) => void;
}

/**
 * Opens (creating when needed) the SQLite database in the data directory, in WAL mode, with
 * its checkpoints on a worker thread (checkpointer.ts) unless asked otherwise.
 */
export function openDatabase(dataDir: string, options: DatabaseOptions = {}): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, DATABASE_FILE);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const checkpointer =
    options.checkpoints === 'inline'
      ? { stop: () => undefined }
      : startCheckpointer(sqlite, file, options.onCheckpointError ?? (() => undefined));
  const database = reusingStatements(sqlite);
  return new Kysely<Database>({
    dialect: new SqliteDialect({
      database: {
        ...database,
        close: () => {
          checkpointer.stop();
          database.close();
        },
      },
    }),
  });
}

/** Distinct statements kept compiled; queries are built from a fixed set, lists of ids aside. */
const STATEMENTS_KEPT = 500;

/**
 * Kysely prepares every query anew, and better-sqlite3 compiles each one: ~0.1 ms, a fifth of
 * a small API answer's time on the server (bench/remote-fleet profile: the session check on
 * every request). The same text reuses its compiled statement; one still being iterated gets
 * a fresh one. SQLite recompiles a kept statement itself after a schema change.
 */
export function reusingStatements(db: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => db.close(),
    prepare(text) {
      const cached = kept.get(text);
      if (cached !== undefined && !cached.busy) return cached;
      const statement = db.prepare(text);
      if (cached === undefined) {
        if (kept.size >= STATEMENTS_KEPT) kept.delete(kept.keys().next().value as string);
        kept.set(text, statement);
      }
      return statement;
    },
  };
}

/** Applies every pending migration; throws when one fails so that start-up stops. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const name = failed?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${name} failed: ${String(error)}`, { cause: error });
  }
}

/** True when the database answers a trivial query. */
export async function isDatabaseHealthy(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
