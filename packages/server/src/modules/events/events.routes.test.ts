import type { EventsResponse } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { searchMode } from './search-pattern.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
const hour = 3_600_000;
beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  const now = Date.now();
  const record = t.app.services.events.record.bind(t.app.services.events);
  await record({
    severity: 'info',
    category: 'container',
    event_type: 'started',
    title: 'Container Started: web-1',
    host_id: 'h1',
    host_name: 'alpha',
    container_id: 'h1:aaaaaaaaaaaa',
    container_name: 'web-1',
    timestamp: new Date(now - 3 * hour).toISOString(),
  });
  await record({
    severity: 'error',
    category: 'container',
    event_type: 'died',
    title: 'Container Died: db-1',
    message: 'Exit code 137',
    host_id: 'h2',
    host_name: 'beta',
    container_id: 'h2:bbbbbbbbbbbb',
    container_name: 'db-1',
    correlation_id: 'c-1',
    timestamp: new Date(now - 2 * hour).toISOString(),
  });
  await record({
    severity: 'warning',
    category: 'host',
    event_type: 'disconnection',
    title: 'Host beta disconnected',
    host_id: 'h2',
    host_name: 'beta',
    timestamp: new Date(now - 30 * 60_000).toISOString(),
  });
  await record({
    severity: 'info',
    category: 'user',
    event_type: 'login',
    title: 'admin_x signed in 50% faster',
    timestamp: new Date(now - 100 * hour).toISOString(),
  });
});
afterAll(() => t.close());

const query = async (qs: string) => (await api.get<EventsResponse>(`/events?${qs}`)).body;
const titles = (r: EventsResponse) => r.events.map((e) => e.title);

describe('GET /events', () => {
  it('returns newest first with a total count, or oldest first on request', async () => {
    const all = await query('');
    expect(all.total_count).toBe(4);
    expect(all.events[0]?.title).toBe('Host beta disconnected');
    expect((await query('sort_order=asc')).events[0]?.title).toMatch(/^admin_x/);
  });

  it('filters by repeated category, severity, host and container ids', async () => {
    expect(titles(await query('category=host&category=user'))).toHaveLength(2);
    expect(titles(await query('severity=error'))).toEqual(['Container Died: db-1']);
    expect((await query('host_id=h2')).total_count).toBe(2);
    expect(
      titles(await query('container_id=h1:aaaaaaaaaaaa&container_id=h2:bbbbbbbbbbbb')),
    ).toHaveLength(2);
    expect(titles(await query('event_type=died&container_name=db'))).toEqual([
      'Container Died: db-1',
    ]);
    expect(titles(await query('correlation_id=c-1'))).toEqual(['Container Died: db-1']);
  });

  it('filters by hours and by date range; hours=0 is all time', async () => {
    expect((await query('hours=1')).total_count).toBe(1);
    expect((await query('hours=24')).total_count).toBe(3);
    expect((await query('hours=0')).total_count).toBe(4);
    const start = new Date(Date.now() - 2.5 * hour).toISOString();
    const end = new Date(Date.now() - hour).toISOString();
    expect(titles(await query(`start_date=${start}&end_date=${end}`))).toEqual([
      'Container Died: db-1',
    ]);
  });

  it('searches text literally and regular expressions as such', async () => {
    expect(titles(await query('search=50%25'))).toHaveLength(1);
    expect(titles(await query('search=admin_x'))).toHaveLength(1);
    expect(
      titles(await query(`search=${encodeURIComponent('^Container (Started|Died)')}`)),
    ).toHaveLength(2);
    expect(titles(await query('search=exit%20code%20137'))).toEqual(['Container Died: db-1']);
    expect(titles(await query(`search=${encodeURIComponent('^Container Died: db-\\d$')}`))).toEqual(
      ['Container Died: db-1'],
    );
    expect(searchMode('a[b')).toBe('text');
  });

  it('pages with limit and offset', async () => {
    const page = await query('limit=2&offset=2');
    expect(page.events).toHaveLength(2);
    expect(page.total_count).toBe(4);
  });

  it('answers 400 naming the parameter for bad values', async () => {
    for (const [qs, field] of [
      ['limit=0', 'Limit'],
      ['severity=loud', 'Severity'],
      ['start_date=yesterday', 'Start date'],
      ['colour=red', 'colour'],
    ]) {
      const res = await api.get<{ detail: string }>(`/events?${qs}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(field);
    }
  });

  it('answers host and container event lists', async () => {
    expect((await api.get<EventsResponse>('/events/host/h2?limit=1')).body.events).toHaveLength(1);
    const c = await api.get<EventsResponse>('/hosts/h2/events/container/bbbbbbbbbbbb?limit=50');
    expect(titles(c.body)).toEqual(['Container Died: db-1']);
  });
});
