import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** How often the checkpointer looks at the write-ahead log. */
export const CHECKPOINT_EVERY_MS = 1000;
/** SQLite's own automatic checkpoint size, in pages, which the main connection goes back to. */
const AUTOCHECKPOINT_PAGES = 1000;
/** The longest a close waits for the worker's connection to close first. */
const STOP_WAIT_MS = 2000;

/**
 * The worker's code, as text (a worker of an eval'd script runs as CommonJS, so it finds
 * better-sqlite3 wherever the server does, from sources or a build): its own connection to the
 * same file copies the write-ahead log into the database once a second, PASSIVE so it never
 * waits for a writer or a reader; a checkpoint that finds the database busy tries again later.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage(String(err)); }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { db.close(); } finally {
    Atomics.store(workerData.closed, 0, 1);
    Atomics.notify(workerData.closed, 0);
    process.exit(0);
  }
});
`;

export interface Checkpointer {
  stop(): void;
}

/**
 * Moves SQLite's write-ahead log checkpoints off the event loop. SQLite runs one inside
 * whichever commit takes the log past 1,000 pages, copying ~4 MB and syncing the file while
 * that commit (a history write, a retention step, a request's insert) waits: the longest
 * holds measured in bench/history-checkpoint. The main connection stops checkpointing, and a
 * worker thread with a connection of its own does it every second instead. Should the worker
 * fail, the main connection checkpoints as before, so the log never grows without bound.
 */
export function startCheckpointer(
  sqlite: SQLite.Database,
  file: string,
  onError: (message: string) => void,
): Checkpointer {
  const fallBack = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  let stopped = false;
  let worker: Worker;
  // Set by the worker once its connection is closed (see stop).
  const closed = new Int32Array(new SharedArrayBuffer(4));
  try {
    worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        file,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        everyMs: CHECKPOINT_EVERY_MS,
        closed,
      },
    });
  } catch (err) {
    onError(`checkpoints stay on the main connection: ${String(err)}`);
    return { stop: () => undefined };
  }
  sqlite.pragma('wal_autocheckpoint = 0');
  worker.unref();
  worker.on('message', (message: string) => onError(message));
  worker.on('error', (err: Error) => {
    onError(`the checkpoint worker failed; the main connection checkpoints again: ${err.message}`);
    fallBack();
  });
  worker.on('exit', () => {
    if (!stopped) fallBack();
  });
  return {
    // Waits (briefly, blocking) until the worker's connection is closed, so the main one closes
    // last: SQLite then checkpoints the whole log into the file and removes it, as before, and
    // nothing touches the files once the database is closed (a backup, a removed directory).
    stop: () => {
      if (stopped) return;
      stopped = true;
      worker.postMessage('stop');
      Atomics.wait(closed, 0, 0, STOP_WAIT_MS);
    },
  };
}
