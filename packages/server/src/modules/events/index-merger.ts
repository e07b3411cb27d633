import { Worker } from 'node:worker_threads';
import type { Db } from '../../db/database.js';
import { databaseFile } from './events.store.js';
import { MERGE_WORKER_ROLE, type MergeReply, type MergeStep } from './merge-worker.js';

/** Under tests the source runs as TypeScript; the built server runs the compiled file. */
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './merge-worker.ts' : './merge-worker.js',
  import.meta.url,
);

interface Pending {
  id: number;
  resolve: (merged: boolean) => void;
  reject: (error: Error) => void;
}

/**
 * Runs the trigram index's merge steps in a worker thread on its own connection, so the main
 * thread only awaits the answer. The worker starts on first use and keeps the process alive
 * only while a step runs; steps go one at a time. A worker that fails or exits fails the step
 * under way, and the next step starts a new one.
 */
export class IndexMerger {
  private worker: Worker | null = null;
  private pending: Pending | null = null;
  /** The last step asked for: the next one is sent once it has settled. */
  private queue: Promise<unknown> = Promise.resolve();
  private dbPath: Promise<string> | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly db: Db) {}

  /** About `pages` pages of merge work; false once there was nothing to merge. */
  step(pages: number): Promise<boolean> {
    const step = this.queue.then(() => this.send(pages));
    this.queue = step.catch(() => undefined);
    return step;
  }

  /** Ends the worker (after the step under way, which SQLite cannot interrupt). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.worker !== null) await this.retire(this.worker, new Error('index merging closed'));
  }

  private async send(pages: number): Promise<boolean> {
    const dbPath = await (this.dbPath ??= databaseFile(this.db));
    if (this.closed) throw new Error('index merging closed');
    const worker = this.worker ?? this.start();
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending = { id, resolve, reject };
      worker.ref();
      worker.postMessage({ id, dbPath, pages } satisfies MergeStep);
    });
  }

  private start(): Worker {
    const worker = new Worker(WORKER_URL, { workerData: { role: MERGE_WORKER_ROLE } });
    worker.unref();
    worker.on('message', (reply: MergeReply) => this.answer(reply));
    const retire = (error: Error) => {
      this.retire(worker, error).catch(() => undefined);
    };
    worker.on('error', retire);
    worker.on('exit', (code: number) => retire(new Error(`index merge worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private answer(reply: MergeReply): void {
    const pending = this.pending;
    if (pending?.id !== reply.id) return;
    this.pending = null;
    this.worker?.unref();
    if (reply.ok) pending.resolve(reply.merged);
    else pending.reject(new Error(`index merge step failed: ${reply.message}`));
  }

  /** Fails the step under way and ends `worker`; the next step starts a new one. */
  private async retire(worker: Worker, error: Error): Promise<void> {
    if (this.worker !== worker) return;
    this.worker = null;
    worker.removeAllListeners();
    worker.on('error', () => undefined);
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
    await worker.terminate().catch(() => undefined);
  }
}
