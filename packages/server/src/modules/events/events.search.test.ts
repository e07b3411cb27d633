import type { EventsResponse } from '@berth/contracts';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import type { NewEventRow } from './events.store.js';
import { requiredLiteral, searchMode } from './search-pattern.js';
import { SearchPool } from './search-pool.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
const SEEDED = 20_000;
const now = Date.now();

const row = (i: number, over: Partial<NewEventRow> = {}): NewEventRow => ({
  timestamp: new Date(now - (SEEDED - i) * 1000).toISOString(),
  severity: 'info',
  category: 'container',
  event_type: i % 2 === 0 ? 'start' : 'die',
  title: `Container ${i % 2 === 0 ? 'Started' : 'Died'}: app-${i % 500}`,
  message: i % 2 === 0 ? null : `Exit code ${i % 7}`,
  host_id: `h${i % 5}`,
  host_name: `node-${i % 5}`,
  container_id: `h${i % 5}:${String(i % 500).padStart(12, '0')}`,
  container_name: `app-${i % 500}`,
  ...over,
});

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  const rows = Array.from({ length: SEEDED }, (_, i) => row(i));
  rows.push(
    row(SEEDED, { title: 'Disk Alarm', message: 'Volume 95% full on /var/lib_data' }),
    row(SEEDED + 1, { title: 'Plain', container_name: 'Payments-API', host_name: 'Rack-Zeta' }),
  );
  for (let i = 0; i < rows.length; i += 500)
    await t.app.services.db
      .insertInto('events')
      .values(rows.slice(i, i + 500))
      .execute();
}, 60_000);
afterAll(() => t.close());

const search = async (pattern: string, extra = '') =>
  api.get<EventsResponse & { detail?: string }>(
    `/events?search=${encodeURIComponent(pattern)}&limit=5${extra}`,
  );

/** Runs `work` while polling /api/health; answers its time and the slowest health answer. */
async function withHealthWatch(work: () => Promise<unknown>) {
  const state = { pending: true };
  let worst = 0;
  const poll = (async () => {
    while (state.pending) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      worst = Math.max(worst, performance.now() - started);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const started = performance.now();
  await work();
  const took = performance.now() - started;
  state.pending = false;
  await poll;
  return { took, worst };
}

describe('event search', () => {
  it('answers a catastrophic-backtracking pattern quickly and keeps the server responsive', async () => {
    // Warm up: the first search starts the worker threads, a one-off cost at start.
    await search('warm-up');
    await t.app.inject({ method: 'GET', url: '/api/health' });
    for (const pattern of ['^(.|.)*x{18}$', '^(.|.)*[xy]{18}$']) {
      let status = 0;
      const { took, worst } = await withHealthWatch(async () => {
        const res = await search(pattern);
        status = res.status;
        expect(res.body.total_count).toBe(0);
      });
      expect(status).toBe(200);
      expect(took).toBeLessThan(1000);
      expect(worst).toBeLessThan(100);
    }
  });

  it('counts regex matches over every row, in order, with paging', async () => {
    const res = await search('^Container Died: app-1\\d$', '&offset=2');
    // Odd i with i % 500 in 10..19: 5 values * 40 repetitions.
    expect(res.body.total_count).toBe(200);
    expect(res.body.events).toHaveLength(5);
    const stamps = res.body.events.map((e) => e.timestamp);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const asc = await search('app-49\\d$', '&sort_order=asc&hours=1');
    expect(asc.body.events[0]?.title).toMatch(/app-49\d$/);
  });

  it('gives the same answer as testing each field of each row, by index or by scan', async () => {
    const seeded = [
      ...Array.from({ length: SEEDED }, (_, i) => row(i)),
      row(SEEDED, { title: 'Disk Alarm', message: 'Volume 95% full on /var/lib_data' }),
      row(SEEDED + 1, { title: 'Plain', container_name: 'Payments-API', host_name: 'Rack-Zeta' }),
    ];
    const fields = ['title', 'message', 'container_name', 'host_name'] as const;
    const expected = (pattern: string, since: number) => {
      const re = new RegExp(pattern.replace('\\A', '^').replace('\\z', '$'), 'i');
      return seeded.filter(
        (r) => Date.parse(r.timestamp) >= since && fields.some((f) => re.test(r[f] ?? '')),
      ).length;
    };
    for (const pattern of [
      '^Exit code 3$', // the message field alone
      'code [35]$',
      '^node-[12]$', // the host name alone
      '\\Apayments', // \A: no joined-text test
      'died: app-4\\d\\d$', // a literal: the index when the selection is large
      '^[a-z]+ [a-z]+: app-7$', // no literal: every row is tested
      'app-1\\d\\sexit', // matches across fields joined by a newline, never in one field
    ]) {
      // All time: the index serves a literal; one hour (3,600 rows): the scan does. The hour
      // starts between two rows, so the clock moving on cannot change the answer.
      const hourAgo = now - 3_600_500;
      for (const [extra, since] of [
        ['', 0],
        [`&start_date=${new Date(hourAgo).toISOString()}`, hourAgo],
      ] as const) {
        const res = await search(pattern, extra);
        expect(res.status, pattern).toBe(200);
        expect(res.body.total_count, `${pattern}${extra}`).toBe(expected(pattern, since));
      }
    }
  });

  it('pages a substring search in order, read from the index or scanned', async () => {
    const hourAgo = new Date(now - 3_600_500).toISOString();
    for (const order of ['desc', 'asc'] as const) {
      const all = await search('died: app-4', `&sort_order=${order}`);
      const paged = await search('died: app-4', `&sort_order=${order}&offset=3`);
      const scanned = await search('died: app-4', `&sort_order=${order}&start_date=${hourAgo}`);
      // Odd i (died) with i % 500 odd and in 40..49 or 400..499: 55 in every 500 rows.
      expect(all.body.total_count).toBe(2200);
      expect(paged.body.events.slice(0, 2).map((e) => e.id)).toEqual(
        all.body.events.slice(3, 5).map((e) => e.id),
      );
      for (const res of [all, paged, scanned]) {
        const stamps = res.body.events.map((e) => e.timestamp);
        const sorted = [...stamps].sort();
        expect(stamps).toEqual(order === 'asc' ? sorted : sorted.reverse());
      }
    }
  });

  it('refuses regexes RE2 cannot run, naming the parameter', async () => {
    for (const [pattern, text] of [
      ['(a)\\1', 'Search: Invalid regular expression'],
      ['(?=x)abc', 'Search: Invalid regular expression'],
      ['\\pL{1000}', 'Regular expression is too complex'],
      ['(ab)+'.repeat(60), 'Regular expression is too long'],
    ] as const) {
      const res = await search(pattern);
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(text);
    }
    expect(searchMode('a[b')).toBe('text');
    expect((await search('a[b')).status).toBe(200);
  });

  it('finds substrings case-insensitively in every field through the index', async () => {
    expect((await search('EXIT CODE 3')).body.total_count).toBe(1429);
    expect((await search('payments-api')).body.events[0]?.title).toBe('Plain');
    expect((await search('rack-ZETA')).body.total_count).toBe(1);
    expect((await search('APP-499', '&hours=0')).body.total_count).toBe(40);
    // Many matches with and without another filter: the index counts, the scan pages.
    expect((await search('code')).body.total_count).toBe(10_001); // 'Plain' is a died row too
    const filtered = await search('code', '&category=container&host_id=h1&host_id=h3');
    expect(filtered.body.total_count).toBe(4001);
    expect(filtered.body.events.every((e) => ['h1', 'h3'].includes(e.host_id ?? ''))).toBe(true);
  });

  it('treats %, _ and quotes as plain characters', async () => {
    expect((await search('95%')).body.total_count).toBe(1);
    expect((await search('lib_data')).body.total_count).toBe(1);
    expect((await search('b_')).body.total_count).toBe(1);
    expect((await search('5%')).body.total_count).toBe(1);
    expect((await search('"full" OR app')).body.total_count).toBe(0);
    expect((await search('lib_d*')).status).toBe(200);
  });

  it('keeps deleted events out of the answers; the text of an event cannot change', async () => {
    const id = (
      await t.app.services.events.record({
        ...eventInput,
        title: 'Quokka sighted',
        timestamp: '2000-01-01T00:00:00.000Z',
      })
    ).id;
    expect((await search('quokka')).body.total_count).toBe(1);
    await expect(
      t.app.services.db
        .updateTable('events')
        .set({ title: 'Wombat sighted' })
        .where('id', '=', id)
        .execute(),
    ).rejects.toThrow('the text of a recorded event cannot change');
    expect((await search('quokka')).body.total_count).toBe(1);
    expect(await t.app.services.events.pruneOlderThan('2001-01-01T00:00:00.000Z', 10)).toBe(1);
    expect((await search('quokka')).body.total_count).toBe(0);
  });
});

const eventInput = { severity: 'info', category: 'system', event_type: 'x' } as const;

describe('search helpers', () => {
  it('finds the literal every match must contain, or none', () => {
    expect(requiredLiteral('^Container Died: app-1\\d$')).toBe('Container Died: app-1');
    expect(requiredLiteral('^(.|.)*x{18}$')).toBe('x'.repeat(18));
    expect(requiredLiteral('abcd?e')).toBe('abc');
    expect(requiredLiteral('exit\\.code')).toBe('exit.code');
    expect(requiredLiteral('foo|barbaz')).toBeNull();
    expect(requiredLiteral('(foo|bar)baz')).toBe('baz');
    expect(requiredLiteral('[abc]de')).toBeNull();
    expect(requiredLiteral('café')).toBeNull();
  });

  it.runIf(process.platform === 'linux')(
    'runs searches in threads that give way to the main one',
    async () => {
      await search('warm-up');
      const nice = (tid: string) =>
        Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]);
      const threads = readdirSync('/proc/self/task').map(nice);
      expect(nice(String(process.pid))).toBe(0);
      expect(threads.filter((n) => n === 10).length).toBeGreaterThanOrEqual(1);
    },
  );

  it('gives up on a job whose deadline has passed', async () => {
    const pool = new SearchPool();
    const outcome = await pool.run({
      kind: 'search',
      dbPath: '/nonexistent',
      deadline: Date.now() - 1,
      probe: { sql: 'select 1', parameters: [] },
      index: null,
      scanCandidates: { sql: 'select 1', parameters: [] },
      scanAll: { sql: 'select 1', parameters: [] },
      indexMatches: null,
      indexCount: null,
      scanPage: null,
      descending: true,
      regex: null,
      joinedTest: false,
      offset: 0,
      limit: 1,
    });
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    await pool.close();
  });
});
