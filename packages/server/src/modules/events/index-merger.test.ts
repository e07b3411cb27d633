import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../db/database.js';
import { EventsService } from './events.service.js';
import { createEventsStore } from './events.store.js';

let dataDir: string;
let db: Db;
let events: EventsService;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'berth-index-merge-'));
  db = openDatabase(dataDir);
  await migrateToLatest(db);
  events = new EventsService(createEventsStore(db), { publish: () => undefined } as never);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await events.close();
  await db.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

const totalChanges = async () =>
  (await sql<{ n: number }>`select total_changes() as n`.execute(db)).rows[0]?.n;
const indexRows = async () =>
  Number(
    (await sql<{ n: number }>`select count(*) as n from events_fts_data`.execute(db)).rows[0]?.n,
  );

/**
 * Segments of a few pages each, one per batch and per delete, automerge paused. FTS5 merges a
 * level whole at 16 segments; 70 leave levels with the 4 or more a merge step looks for.
 */
async function backlog() {
  await events.pauseIndexMerging();
  for (let batch = 0; batch < 60; batch++)
    await db
      .insertInto('events')
      .values(
        Array.from({ length: 150 }, (_, j) => ({
          timestamp: new Date(Date.now() - batch * 1000).toISOString(),
          severity: 'info',
          category: 'system',
          event_type: 'x',
          title: `event number ${batch * 150 + j}`,
          message: `on host-${(batch * 7919 + j * 104_729) % 100_003}`,
        })),
      )
      .execute();
  for (let i = 0; i < 10; i++)
    await db
      .deleteFrom('events')
      .where('id', '<=', (i + 1) * 100)
      .execute();
}

/** The merger's worker, caught as the main thread posts it a step (undefined before). */
function catchWorker() {
  const post = vi.spyOn(Worker.prototype, 'postMessage');
  return () => post.mock.contexts.at(-1) as Worker | undefined;
}

describe('index merge steps', () => {
  it('merge a backlog in a worker thread until nothing is left', async () => {
    await backlog();
    const rowsBefore = await indexRows();
    const mainChanges = await totalChanges();
    const answers: boolean[] = [];
    while (answers.length < 500 && answers.at(-1) !== false)
      answers.push(await events.mergeIndexStep(8));
    expect(answers[0]).toBe(true);
    expect(answers.at(-1)).toBe(false);
    expect(answers.length).toBeGreaterThan(1);
    expect(await events.mergeIndexStep(8)).toBe(false);
    // The merging happened on another connection: this one changed nothing meanwhile.
    expect(await totalChanges()).toBe(mainChanges);
    expect(await indexRows()).toBeLessThan(rowsBefore);
    await sql`insert into events_fts(events_fts) values ('integrity-check')`.execute(db);
    await events.resumeIndexMerging();
    const found = await db
      .selectFrom(sql<{ rowid: number }>`events_fts`.as('f'))
      .select('rowid')
      .where(sql<boolean>`events_fts match '"number 1000"'`)
      .execute();
    expect(found.map((r) => r.rowid).sort((a, b) => a - b)).toEqual([1001]);
  });

  it('start a new worker after the last one exited', async () => {
    const worker = catchWorker();
    expect(await events.mergeIndexStep(8)).toBe(false);
    const first = worker();
    expect(first).toBeDefined();
    await first?.terminate();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await events.mergeIndexStep(8)).toBe(false);
    expect(worker()).not.toBe(first);
  });

  it('end with close(), even while a step is under way', async () => {
    await backlog();
    const worker = catchWorker();
    const step = events.mergeIndexStep(8).then(
      () => 'answered',
      () => 'failed',
    );
    await vi.waitFor(() => expect(worker()).toBeDefined());
    await events.close();
    expect(['answered', 'failed']).toContain(await step);
    // A thread that has exited has no id any more.
    expect(worker()?.threadId).toBe(-1);
    await expect(events.mergeIndexStep(8)).rejects.toThrow('closed');
  });
});
