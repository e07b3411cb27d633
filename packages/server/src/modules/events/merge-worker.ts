// Runs the trigram index's merge steps off the main thread on its own read-write connection:
// a step of even 8 pages sometimes takes 40-75 ms, longer than the main thread may be held.
// Self-contained (packages only): Node loads it directly, as TypeScript under tests and as
// JavaScript from dist.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** What the merger passes as `workerData`, so only its worker serves steps. */
export const MERGE_WORKER_ROLE = 'berth-event-index-merge';

export interface MergeStep {
  id: number;
  dbPath: string;
  /** About this many pages of merge work (FTS5's 'merge' command). */
  pages: number;
}

export type MergeReply = { id: number } & (
  { ok: true; merged: boolean } | { ok: false; message: string }
);

/**
 * Like the main connection (db/database.ts): wait for its writes, commit without fsync.
 * Unlike the search workers this thread keeps the normal priority: a step holds the write
 * lock, and every main-thread write waits for it to end.
 */
const PRAGMAS = ['busy_timeout = 5000', 'synchronous = NORMAL'];

let connection: {
  path: string;
  db: Database.Database;
  merge: Database.Statement;
  changes: Database.Statement;
} | null = null;

function open(path: string) {
  if (connection?.path !== path) {
    connection?.db.close();
    const db = new Database(path, { fileMustExist: true });
    for (const pragma of PRAGMAS) db.pragma(pragma);
    connection = {
      path,
      db,
      merge: db.prepare(`insert into events_fts(events_fts, rank) values ('merge', ?)`),
      changes: db.prepare('select total_changes()').pluck(),
    };
  }
  return connection;
}

/** One merge step; false when there was nothing to merge. */
function merge(step: MergeStep): boolean {
  const { merge, changes } = open(step.dbPath);
  const before = Number(changes.get());
  merge.run(step.pages);
  // A merge with nothing to do changes at most one row (FTS5's documented test).
  return Number(changes.get()) - before > 1;
}

function handle(step: MergeStep): MergeReply {
  try {
    return { id: step.id, ok: true, merged: merge(step) };
  } catch (error) {
    return {
      id: step.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

// The main thread imports this file for its types and constants: only the merger's worker serves.
if (parentPort !== null && (workerData as { role?: unknown } | null)?.role === MERGE_WORKER_ROLE) {
  const port = parentPort;
  port.on('message', (step: MergeStep) => {
    port.postMessage(handle(step));
  });
}
