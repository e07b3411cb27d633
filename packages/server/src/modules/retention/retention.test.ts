import { eventQuerySchema } from '@berth/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveHub } from '../../platform/live-hub.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';
import { createEventsStore, EventsService } from '../events/index.js';
import { nextStepSize, RetentionService } from './retention.service.js';

let t: TestApp;
const DAY = 86_400_000;
const eventQueryDefaults = eventQuerySchema.parse({});
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.services.retention.runOnce();
});
afterAll(() => t.close());

const db = () => t.app.services.db;
const count = async (table: 'events' | 'batch_jobs' | 'batch_items' | 'sessions' | 'alerts') =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function seedEvents(days: number, n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    timestamp: ago(days),
    severity: 'info',
    category: 'system',
    event_type: 'x',
    title: `event ${days} ${i}`,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await db()
      .insertInto('events')
      .values(rows.slice(i, i + 500))
      .execute();
}

async function seedJob(id: string, days: number, status: string) {
  await db()
    .insertInto('batch_jobs')
    .values({
      id,
      action: 'start',
      params: '{}',
      status,
      created_by: 'admin',
      created_at: ago(days),
    })
    .execute();
  await db()
    .insertInto('batch_items')
    .values(
      [1, 2, 3].map((p) => ({
        id: `${id}-${p}`,
        job_id: id,
        position: p,
        host_id: 'h1',
        container_id: 'c',
        status: 'success',
      })),
    )
    .execute();
}

/** Raw SQL with the original columns, so the alerts module may add columns freely. */
async function seedAlert(id: string, state: string, resolvedDaysAgo: number | null) {
  const resolvedAt = resolvedDaysAgo === null ? null : ago(resolvedDaysAgo);
  await sql`insert into alerts (id, title, kind, state, severity, scope_type, scope_id,
    first_seen, last_seen, resolved_at)
    values (${id}, ${id}, 'metric', ${state}, 'warning', 'host', 'h1', ${ago(200)}, ${ago(200)},
    ${resolvedAt})`.execute(db());
}

describe('retention', () => {
  it('deletes what is past its retention and keeps the rest', async () => {
    const before = await count('sessions');
    await seedEvents(100, 3000);
    await seedEvents(10, 5);
    await seedJob('old-done', 100, 'completed');
    await seedJob('old-running', 100, 'running');
    await seedJob('new-done', 1, 'completed');
    await seedAlert('old-resolved', 'resolved', 120);
    await seedAlert('new-resolved', 'resolved', 10);
    await seedAlert('old-open', 'open', null);
    await db()
      .insertInto('sessions')
      .values({
        token_hash: 'expired',
        user_id: 1,
        created_at: ago(30),
        last_seen_at: ago(30),
        expires_at: ago(1),
      })
      .execute();

    const report = await t.app.services.retention.runOnce();
    expect(report).toMatchObject({ events: 3000, batch: 4, alerts: 1, sessions: 1 });
    expect(report.longestChunkMs).toBeGreaterThan(0);
    expect(await count('events')).toBe(5);
    expect(
      (await db().selectFrom('batch_jobs').select('id').orderBy('id').execute()).map((r) => r.id),
    ).toEqual(['new-done', 'old-running']);
    expect(await count('batch_items')).toBe(6);
    expect(
      (await db().selectFrom('alerts').select('id').orderBy('id').execute()).map((r) => r.id),
    ).toEqual(['new-resolved', 'old-open']);
    expect(await count('sessions')).toBe(before);
    // The search index keeps the deleted events' entries but finds only what is left.
    const found = await t.app.services.events.query({
      ...eventQueryDefaults,
      search: 'event 10 ',
    });
    expect(found.total_count).toBe(5);
  });

  it('keeps everything at 0 days and applies a changed setting on the next run', async () => {
    await t.app.services.settings.update({ event_retention_days: 0, alert_retention_days: 0 });
    await seedEvents(300, 10);
    await seedAlert('ancient', 'resolved', 700);
    await t.app.services.retention.runOnce();
    expect(await count('events')).toBe(15);
    expect(await count('alerts')).toBe(3);

    await t.app.services.settings.update({ event_retention_days: 5 });
    const report = await t.app.services.retention.runOnce();
    expect(report.events).toBe(15);
    expect(await count('events')).toBe(0);
    expect(await count('alerts')).toBe(3);
  });
});

describe('retention and the search index', () => {
  it('drops the index partitions whose events all went, and finds what is left', async () => {
    await t.app.services.settings.update({ event_retention_days: 60 });
    const hub = { publish: () => undefined } as unknown as LiveHub;
    const events = new EventsService(createEventsStore(db()), hub, { partitionEvents: 1000 });
    const partitions = async () =>
      (await db().selectFrom('events_search_partitions').select('name').execute()).length;
    try {
      for (let i = 0; i < 5; i++) {
        await seedEvents(100, 500);
        await events.rollIndexIfFull();
      }
      await seedEvents(10, 700);
      expect(await partitions()).toBeGreaterThanOrEqual(3);
      const { services } = t.app;
      const log = { info: () => undefined, error: () => undefined };
      const retention = new RetentionService({ ...services, events, log });
      const report = await retention.runOnce();
      expect(report.events).toBe(2500);
      // Left: the partition holding the 700 (and old ones' tail) and the newest, if apart.
      expect(await partitions()).toBeLessThanOrEqual(2);
      const found = await events.query({ ...eventQueryDefaults, search: 'event 10 ' });
      expect(found.total_count).toBe(700);
      const gone = await events.query({ ...eventQueryDefaults, search: 'event 100 ' });
      expect(gone.total_count).toBe(0);
    } finally {
      await events.close();
    }
  });
});

describe('retention timing', () => {
  it('sizes chunks toward a short delete', () => {
    const next = (size: number, full: boolean, ms: number) =>
      nextStepSize(size, full, ms, 50, 20_000);
    expect(next(1000, true, 40)).toBe(200);
    expect(next(1000, true, 2)).toBe(2000);
    expect(next(1000, true, 6)).toBe(1000);
    expect(next(1000, false, 2)).toBe(1000);
    expect(next(100, true, 10_000)).toBe(50);
    expect(next(15_000, true, 1)).toBe(20_000);
  });

  it('runs next at 03:00 local time', () => {
    const retention = t.app.services.retention;
    const evening = new Date(2026, 0, 10, 22, 30);
    expect(retention.nextRun(evening)).toEqual(new Date(2026, 0, 11, 3, 0));
    const night = new Date(2026, 0, 10, 2, 0);
    expect(retention.nextRun(night)).toEqual(new Date(2026, 0, 10, 3, 0));
    expect(retention.nextRun(new Date(2026, 0, 10, 3, 0))).toEqual(new Date(2026, 0, 11, 3, 0));
    expect(retention.nextRun()?.getTime()).toBeGreaterThan(Date.now());
  });
});
