import { sql } from 'kysely';
import type { Db } from './database.js';

/** How long the final checkpoint waits for a reader (a backup copying the file) to finish. */
const CHECKPOINT_BUSY_MS = 1000;

/**
 * The last step of a stop: statements still queued run first (this one queues behind them),
 * then the WAL is folded into the database file and truncated, so the file on the volume is
 * whole by itself, and the connection closes.
 */
export async function closeDatabase(
  db: Db,
  log: { warn: (obj: object, msg: string) => void },
): Promise<void> {
  try {
    await sql`pragma busy_timeout = ${sql.raw(String(CHECKPOINT_BUSY_MS))}`.execute(db);
    const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    if (rows[0]?.busy === 1)
      log.warn({}, 'the database is being read elsewhere: its WAL is folded in at the next start');
  } catch (err) {
    log.warn(
      { err },
      'the final database checkpoint failed; SQLite replays the WAL at the next start',
    );
  } finally {
    await db.destroy();
  }
}
