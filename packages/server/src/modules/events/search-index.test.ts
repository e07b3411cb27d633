import { eventQuerySchema, type EventQuery } from '@berth/contracts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrateToLatest, openDatabase } from '../../db/database.js';
import { migrations } from '../../db/migrations/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveHub } from '../../platform/live-hub.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';
import { EventsService } from './events.service.js';
import { createEventsStore, type NewEventRow } from './events.store.js';

let t: TestApp;
let events: EventsService;
/** Over the 20,000 a search scans without the index, and a partition boundary inside. */
const PER_PARTITION = 10_000;
const DAY = 86_400_000;
const BASE = Date.now();
const hub = { publish: () => undefined } as unknown as LiveHub;
const defaults = eventQuerySchema.parse({});
const db = () => t.app.services.db;

const row = (i: number, daysAgo: number): NewEventRow => ({
  timestamp: new Date(BASE - daysAgo * DAY + i).toISOString(),
  severity: 'info',
  category: 'container',
  event_type: 'die',
  title: `Container Died: app-${i % 50}`,
  message: `Exit code ${i % 7}`,
  host_id: `h${i % 3}`,
  host_name: `node-${i % 3}`,
  container_name: `app-${i % 50}`,
});

/** Events stored in bulk (as the bench does), the index rolled after every 500. */
async function seed(from: number, count: number, daysAgo: number) {
  for (let i = from; i < from + count; i += 500) {
    const rows = Array.from({ length: Math.min(500, from + count - i) }, (_, k) =>
      row(i + k, daysAgo),
    );
    await db().insertInto('events').values(rows).execute();
    await events.rollIndexIfFull();
  }
}

const partitions = async () =>
  (
    await db()
      .selectFrom('events_search_partitions')
      .select(['name', 'stale'])
      .orderBy('first_id')
      .execute()
  ).map((p) => `${p.name}${p.stale ? ' (stale)' : ''}`);

/** What a plain scan of `events` says the search must count. */
async function scanCount(text: string, hostId?: string) {
  const like = `%${text}%`;
  let q = db()
    .selectFrom('events')
    .where((eb) =>
      eb.or([
        eb('title', 'like', like),
        eb('message', 'like', like),
        eb('container_name', 'like', like),
        eb('host_name', 'like', like),
      ]),
    );
  if (hostId !== undefined) q = q.where('host_id', '=', hostId);
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return n;
}

const total = async (over: Partial<EventQuery>) =>
  (await events.query({ ...defaults, limit: 5, ...over })).total_count;

/** Asserts text, filtered and regex searches agree with a scan of what is stored. */
async function expectExactSearches() {
  expect(await total({ search: 'app-7' })).toBe(await scanCount('app-7'));
  expect(await total({ search: 'app-7', host_id: ['h1'] })).toBe(await scanCount('app-7', 'h1'));
  expect(await total({ search: 'Died' })).toBe(await scanCount('Died'));
  expect(await total({ search: 'app-1[0-9]$' })).toBe(
    (
      await sql<{
        n: number;
      }>`select count(*) as n from events where container_name glob 'app-1[0-9]'`.execute(db())
    ).rows[0]?.n,
  );
}

beforeAll(async () => {
  t = await buildTestApp();
  events = new EventsService(createEventsStore(db()), hub, { partitionEvents: PER_PARTITION });
  await seed(0, 35_000, 100);
}, 60_000);
afterAll(async () => {
  await events.close();
  await t.close();
});

describe('the partitioned search index', () => {
  it('starts a partition per share of events and searches them all', async () => {
    expect(await partitions()).toEqual([
      'events_fts',
      'events_fts_10001',
      'events_fts_20001',
      'events_fts_30001',
    ]);
    // Stored through the service, an event reaches the newest partition at once.
    await events.record({
      severity: 'error',
      category: 'system',
      event_type: 'x',
      title: 'Zebra crossing',
    });
    expect(await total({ search: 'zebra' })).toBe(1);
    await expectExactSearches();
  });

  it('keeps a deleted event out of every answer until its partition goes whole', async () => {
    // The oldest 12,000: the first partition empties, the second loses a fifth of its events.
    const cutoff = new Date(BASE - 100 * DAY + 12_000).toISOString();
    expect(await events.pruneOlderThan(cutoff, 100_000)).toBe(12_000);
    expect(await partitions()).toEqual([
      'events_fts (stale)',
      'events_fts_10001 (stale)',
      'events_fts_20001',
      'events_fts_30001',
    ]);
    await expectExactSearches();

    expect(await events.dropEmptyIndexPartition()).toBe(true);
    expect(await events.dropEmptyIndexPartition()).toBe(false);
    expect(await partitions()).toEqual([
      'events_fts_10001 (stale)',
      'events_fts_20001',
      'events_fts_30001',
    ]);
    const { rows } = await sql<{
      name: string;
    }>`select name from sqlite_master where name like 'events_fts%'`.execute(db());
    expect(rows.map((r) => r.name)).not.toContain('events_fts_data');
    await expectExactSearches();
  });

  it('never drops the newest partition: new events still reach the index', async () => {
    await events.pruneOlderThan(new Date().toISOString(), 100_000);
    while (await events.dropEmptyIndexPartition());
    expect(await partitions()).toEqual(['events_fts_30001 (stale)']);
    expect(await total({ search: 'app-7' })).toBe(0);
    await seed(10_000, 10, 0);
    expect(await total({ search: 'app-7' })).toBe(await scanCount('app-7'));
    expect(await total({ search: 'app-7' })).toBeGreaterThan(0);
  });
});

describe('an index from before partitions', () => {
  it('becomes the first partition and keeps answering', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-upgrade-'));
    const old = openDatabase(dir);
    try {
      const migrator = new Migrator({
        db: old,
        provider: { getMigrations: () => Promise.resolve(migrations) },
      });
      const { error } = await migrator.migrateTo('0014-alert-indexes');
      expect(error).toBeUndefined();
      await old
        .insertInto('events')
        .values(Array.from({ length: 300 }, (_, i) => row(i, 1)))
        .execute();
      await migrateToLatest(old);
      const upgraded = new EventsService(createEventsStore(old), hub, { partitionEvents: 100 });
      try {
        expect(
          await upgraded.query({ ...defaults, search: 'app-7' }).then((r) => r.total_count),
        ).toBe(6);
        await upgraded.record({
          severity: 'info',
          category: 'system',
          event_type: 'x',
          title: 'app-7 again',
        });
        const { rows } = await sql<{
          name: string;
        }>`select name from events_search_partitions order by first_id`.execute(old);
        // The event went to the old index, which was then full: the next start a partition.
        expect(rows.map((r) => r.name)).toEqual(['events_fts', 'events_fts_302']);
        expect(
          await upgraded.query({ ...defaults, search: 'app-7' }).then((r) => r.total_count),
        ).toBe(7);
      } finally {
        await upgraded.close();
      }
    } finally {
      await old.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
