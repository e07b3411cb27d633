import { Worker } from 'node:worker_threads';
import { WORKER_ROLE, type PageJob, type SearchJob, type SearchReply } from './search-worker.js';

/** Under tests the source runs as TypeScript; the built server runs the compiled file. */
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './search-worker.ts' : './search-worker.js',
  import.meta.url,
);
/** How long past its deadline a worker stuck inside one SQLite step is given before it is killed. */
const GRACE_MS = 250;

export type SearchOutcome =
  | { ok: true; rows: Record<string, unknown>[]; total: number }
  | { ok: false; reason: 'timeout' | 'busy' | 'error'; message: string };

type JobInput = Omit<SearchJob, 'id'> | Omit<PageJob, 'id'>;

interface Slot {
  worker: Worker;
  pending: { id: number; settle: (outcome: SearchOutcome) => void; timer: NodeJS.Timeout } | null;
}

/**
 * A few search workers, started on first use. Jobs wait in a short queue; a worker that
 * overruns its job's deadline is terminated and replaced, so a search cannot run on forever.
 */
export class SearchPool {
  private readonly slots: Slot[] = [];
  private readonly queue: { job: JobInput; settle: (o: SearchOutcome) => void }[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size = 2,
    // Plain pages queue here too (every event list of the UI): room for a few browsers.
    private readonly maxQueued = 32,
  ) {}

  run(job: JobInput): Promise<SearchOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, reason: 'error', message: 'closed' });
    if (this.queue.length >= this.maxQueued)
      return Promise.resolve({ ok: false, reason: 'busy', message: '' });
    return new Promise((settle) => {
      this.queue.push({ job, settle });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { settle } of this.queue.splice(0))
      settle({ ok: false, reason: 'error', message: 'closed' });
    await Promise.all(this.slots.splice(0).map((slot) => this.retire(slot)));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.freeSlot();
      const next = slot && this.queue.shift();
      if (!slot || !next) return;
      if (Date.now() > next.job.deadline) {
        next.settle({ ok: false, reason: 'timeout', message: '' });
        continue;
      }
      const id = this.nextId++;
      const timer = setTimeout(() => this.overrun(slot), next.job.deadline - Date.now() + GRACE_MS);
      slot.pending = { id, settle: next.settle, timer };
      slot.worker.ref();
      slot.worker.postMessage({ ...next.job, id });
    }
  }

  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((s) => s.pending === null);
    if (idle !== undefined || this.slots.length >= this.size) return idle;
    const slot: Slot = {
      worker: new Worker(WORKER_URL, { workerData: { role: WORKER_ROLE } }),
      pending: null,
    };
    slot.worker.unref();
    slot.worker.on('message', (reply: SearchReply) => this.finish(slot, reply));
    slot.worker.on('error', (error: Error) =>
      this.fail(slot, { ok: false, reason: 'error', message: error.message }),
    );
    slot.worker.on('exit', () => this.fail(slot, { ok: false, reason: 'error', message: 'exit' }));
    this.slots.push(slot);
    return slot;
  }

  private finish(slot: Slot, reply: SearchReply): void {
    if (slot.pending?.id !== reply.id) return;
    this.settle(
      slot,
      reply.ok
        ? { ok: true, rows: reply.rows, total: reply.total }
        : { ok: false, reason: reply.reason, message: reply.message },
    );
    this.dispatch();
  }

  private settle(slot: Slot, outcome: SearchOutcome): void {
    const pending = slot.pending;
    if (pending === null) return;
    clearTimeout(pending.timer);
    slot.pending = null;
    slot.worker.unref();
    pending.settle(outcome);
  }

  /** The worker is stuck in one long SQLite step: end it; a new one starts on demand. */
  private overrun(slot: Slot): void {
    this.fail(slot, { ok: false, reason: 'timeout', message: '' });
  }

  private fail(slot: Slot, outcome: SearchOutcome): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    this.settle(slot, outcome);
    this.retire(slot).catch(() => undefined);
    this.dispatch();
  }

  private async retire(slot: Slot): Promise<void> {
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => undefined);
    this.settle(slot, { ok: false, reason: 'error', message: 'closed' });
    await slot.worker.terminate().catch(() => undefined);
  }
}
