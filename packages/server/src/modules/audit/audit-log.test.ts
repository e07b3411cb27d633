import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { createdTarget, CREATED_READ_MAX } from './audit-actions.js';
import { auditAction, csvCell } from './index.js';

/** The log's guarantees: nothing changes a row, retention prunes in steps, safe CSV. */
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
});
afterAll(() => t.close());

const db = () => t.app.services.db;
const DAY = 86_400_000;

describe('append-only', () => {
  it('has no route that changes or deletes a row', async () => {
    const auditRoutes = t.app.routeTable.filter((r) => r.url.toLowerCase().includes('audit'));
    expect(new Set(auditRoutes.map((r) => `${r.method} ${r.url}`))).toEqual(
      new Set([
        'GET /api/audit',
        'HEAD /api/audit',
        'GET /api/audit/export.csv',
        'HEAD /api/audit/export.csv',
      ]),
    );
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie }, payload: {} });
    const [first] = (await t.app.inject({ url: '/api/audit', headers: { cookie } })).json<{
      entries: { id: number }[];
    }>().entries;
    expect(first).toBeDefined();
    const urls = ['/api/audit', `/api/audit/${first?.id}`, '/api/audit/export.csv'];
    for (const url of urls)
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const res = await t.app.inject({ method, url, headers: { cookie }, payload: {} });
        expect([404, 405], `${method} ${url}`).toContain(res.statusCode);
      }
    const again = (await t.app.inject({ url: '/api/audit?limit=1000', headers: { cookie } })).json<{
      entries: { id: number; action: string }[];
    }>().entries;
    expect(again.find((e) => e.id === first?.id)).toMatchObject({ action: 'settings.update' });
  });

  it('refuses an update even from inside the database', async () => {
    await t.app.services.audit.flush();
    await expect(sql`update audit_log set actor = 'mallory'`.execute(db())).rejects.toThrow(
      /audit rows cannot be changed/,
    );
  });
});

describe('retention', () => {
  const seed = async (daysAgo: number, n: number) => {
    for (let i = 0; i < n; i++)
      t.app.services.audit.record({
        source: 'api',
        actor: 'seed',
        action: `seed.${daysAgo}`,
        at: Date.now() - daysAgo * DAY,
      });
    await t.app.services.audit.flush();
  };
  const count = async (action: string) =>
    Number(
      (
        await sql<{
          n: number;
        }>`select count(*) as n from audit_log where action = ${action}`.execute(db())
      ).rows[0]?.n,
    );

  it('prunes rows past the setting (365 days by default) in bounded steps', async () => {
    await seed(400, 1300);
    await seed(300, 5);
    const prune = vi.spyOn(t.app.services.audit, 'pruneOlderThan');
    const report = await t.app.services.retention.runOnce();
    expect(report.audit).toBe(1300);
    expect(await count('seed.400')).toBe(0);
    expect(await count('seed.300')).toBe(5);
    expect(prune.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...prune.mock.calls.map(([, limit]) => limit))).toBeLessThanOrEqual(20_000);
    prune.mockRestore();
  });

  it('follows the setting and keeps everything at 0', async () => {
    await t.app.services.settings.update({ audit_retention_days: 0 });
    await seed(5000, 3);
    expect((await t.app.services.retention.runOnce()).audit).toBe(0);
    await t.app.services.settings.update({ audit_retention_days: 200 });
    expect((await t.app.services.retention.runOnce()).audit).toBe(5 + 3);
    await t.app.services.settings.update({ audit_retention_days: 365 });
  });
});

describe('CSV export', () => {
  it('quotes would-be formulas and CSV specials', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"\nbye')).toBe('"say ""hi""\nbye"');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(200)).toBe('200');
  });

  it('streams the filtered rows, newest first, as an attachment', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      headers: { 'user-agent': '@evil-agent' },
      payload: { username: '=cmd|"/c calc"!A1', password: 'nope' },
    });
    const res = await t.app.inject({
      url: '/api/audit/export.csv?action=auth.login&result=error',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="berth-audit-.+\.csv"$/,
    );
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'timestamp,actor,api_key,source,action,host_name,host_id,container_name,container_id,' +
        'target,address,user_agent,status,ok,error,duration_ms',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=cmd|""/c calc""!A1"`);
    expect(lines[1]).toContain(",'@evil-agent,401,false,Invalid username or password,");
    expect(res.body).not.toContain('nope');
  });

  it('walks every page of a long log', async () => {
    for (let i = 0; i < 2500; i++)
      t.app.services.audit.record({ source: 'api', actor: 'bulk', action: 'bulk.write' });
    const res = await t.app.inject({
      url: '/api/audit/export.csv?user=bulk',
      headers: { cookie },
    });
    expect(res.body.trim().split('\r\n')).toHaveLength(2501);
  });
});

describe('readable actions', () => {
  it.each([
    [
      'POST',
      '/api/hosts/:hostId/containers/:containerId/:action',
      { action: 'restart' },
      'container.restart',
    ],
    ['PATCH', '/api/hosts/:hostId/containers/:containerId/tags', {}, 'container.tags.update'],
    [
      'PUT',
      '/api/containers/:hostId/:containerId/http-health-check',
      {},
      'container.http-health-check.update',
    ],
    ['POST', '/api/hosts', {}, 'hosts.create'],
    ['DELETE', '/api/hosts/:id', {}, 'hosts.delete'],
    ['PATCH', '/api/hosts/:id/tags', {}, 'host.tags.update'],
    ['POST', '/api/v2/auth/login', {}, 'auth.login'],
    ['POST', '/api/alerts/:id/resolve', {}, 'alerts.resolve'],
    ['PATCH', '/api/alerts/rules/:id/toggle', {}, 'alerts.rules.toggle'],
    ['POST', '/api/alerts/rules/', {}, 'alerts.rules.create'],
    ['PUT', '/api/settings', {}, 'settings.update'],
    ['POST', '/api/batch', {}, 'batch.create'],
    ['POST', '/api/hosts/test-connection', {}, 'hosts.test-connection'],
  ])('%s %s is %s', (method, pattern, params: Record<string, string>, action) => {
    expect(auditAction(method, pattern, params)).toBe(action);
  });
});

describe('what a creation made', () => {
  const none = { host_id: null, container_id: null, target: null };
  const json = (v: object) => JSON.stringify(v);

  it('names a new host in the host columns, anything else as its collection', () => {
    expect(createdTarget('/api/hosts', json({ id: 'h1', name: 'edge', url: 'x' }), none)).toEqual({
      ...none,
      host_id: 'h1',
      host_name: 'edge',
    });
    expect(
      createdTarget(
        '/api/api-keys',
        Buffer.from(json({ id: 7, name: 'ci', key: 'bk_s3cret' })),
        none,
      ),
    ).toEqual({ ...none, target: 'api-keys 7 (ci)' });
    expect(createdTarget('/api/batch', json({ job_id: 'j1' }), none)).toEqual(none);
  });

  it('keeps what the path named, and takes a host id from the answer', () => {
    const named = { ...none, target: 'alerts 5' };
    expect(createdTarget('/api/alerts/:id/annotations', json({ id: 9, text: 'x' }), named)).toEqual(
      { ...named, target: 'alerts 5, annotations 9' },
    );
    expect(createdTarget('/api/things', json({ id: 'a', host_id: 'h2' }), none)).toEqual({
      ...none,
      host_id: 'h2',
      target: 'things a',
    });
  });

  it('reads only top-level fields of small JSON objects, capped', () => {
    const nested = json({ config: { id: 1, name: 'inner' } });
    expect(createdTarget('/api/channels', nested, none)).toEqual(none);
    expect(createdTarget('/api/channels', '[{"id":1}]', none)).toEqual(none);
    expect(createdTarget('/api/channels', 'not json', none)).toEqual(none);
    const big = json({ id: 1, name: 'big', pad: 'x'.repeat(CREATED_READ_MAX) });
    expect(createdTarget('/api/channels', big, none)).toEqual(none);
    const long = createdTarget('/api/channels', json({ id: 1, name: 'n'.repeat(5000) }), none);
    expect(long.target?.length).toBeLessThan(150);
  });
});
