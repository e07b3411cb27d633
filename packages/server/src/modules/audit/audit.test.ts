import { join } from 'node:path';
import type { AuditEntry, AuditResponse, CreatedApiKey, Host } from '@berth/contracts';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../db/database.js';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  signedInCookie,
  TEST_ADMIN,
  type TestApp,
} from '../../test/test-app.js';

/** What each change and sign-in leaves in the audit log, read back through its route. */
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
});
afterAll(() => t.close());

const FROM = { remoteAddress: '10.9.8.7', ua: 'audit-test/1.0' };

const send = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { cookie, 'user-agent': FROM.ua },
    remoteAddress: FROM.remoteAddress,
    ...(payload === undefined ? {} : { payload }),
  });

async function audit(query = ''): Promise<AuditResponse> {
  const res = await t.app.inject({ url: `/api/audit${query}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuditResponse>();
}

/** The newest rows of one action. */
const rowsOf = async (action: string) =>
  (await audit(`?action=${encodeURIComponent(action)}`)).entries.filter((e) => e.action === action);

/** Every stored row as the database holds it, beside the app's own connection. */
function rawRows(): Record<string, unknown>[] {
  const file = new Database(join(t.config.dataDir, DATABASE_FILE), { readonly: true });
  try {
    return file.prepare('SELECT * FROM audit_log').all() as Record<string, unknown>[];
  } finally {
    file.close();
  }
}

describe('state-changing requests', () => {
  it('records one row with who, what, where from and the result, never the body', async () => {
    const before = (await rowsOf('settings.update')).length;
    const res = await send('PUT', '/api/settings', { polling_interval: 7 });
    expect(res.statusCode).toBe(200);
    const rows = await rowsOf('settings.update');
    expect(rows).toHaveLength(before + 1);
    expect(rows[0]).toMatchObject({
      actor: 'admin',
      api_key: null,
      source: 'api',
      address: FROM.remoteAddress,
      user_agent: FROM.ua,
      status: 200,
      ok: true,
      error: null,
    });
    expect(rows[0]?.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Date.now() - Date.parse(rows[0]?.timestamp ?? '')).toBeLessThan(60_000);
    expect(JSON.stringify(rawRows())).not.toContain('polling_interval');
  });

  it('names the host a change was about, even once it is deleted', async () => {
    const created = await send('POST', '/api/hosts', {
      name: 'edge-audit',
      url: 'tcp://127.0.0.1:9',
    });
    expect(created.statusCode).toBe(200);
    const host = created.json<Host>();
    expect((await send('DELETE', `/api/hosts/${host.id}`)).statusCode).toBe(200);
    expect((await rowsOf('hosts.create'))[0]).toMatchObject({
      ok: true,
      actor: 'admin',
      host_id: host.id,
      host_name: 'edge-audit',
    });
    expect((await rowsOf('hosts.delete'))[0]).toMatchObject({
      host_id: host.id,
      host_name: 'edge-audit',
      ok: true,
    });
  });

  it('records a refused change with its error, target and status', async () => {
    const res = await send('POST', '/api/hosts/no-such-host/containers/abc123/restart');
    expect(res.statusCode).toBe(404);
    expect((await rowsOf('container.restart'))[0]).toMatchObject({
      host_id: 'no-such-host',
      container_id: 'abc123',
      status: 404,
      ok: false,
      error: 'Host not found',
    });
    const bad = await send('PUT', '/api/settings', { polling_interval: 0 });
    expect(bad.statusCode).toBe(400);
    const [row] = await rowsOf('settings.update');
    expect(row).toMatchObject({ status: 400, ok: false });
    expect(row?.error).toContain('must be between');
  });

  it('records a write without a session as nobody, refused', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/alerts/rules/42/toggle',
      payload: {},
    });
    expect(res.statusCode).toBe(401);
    expect((await rowsOf('alerts.rules.toggle'))[0]).toMatchObject({
      actor: null,
      target: 'rules 42',
      status: 401,
      ok: false,
    });
  });

  it('leaves reads out', async () => {
    const before = (await audit()).total_count;
    await t.app.inject({ url: '/api/settings', headers: { cookie } });
    expect((await audit()).total_count).toBe(before);
  });
});

describe('sign-in', () => {
  it('records success and failure with the attempted username, never the password', async () => {
    const wrong = 'not-the-password-xyz';
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: 'admin', password: wrong },
      remoteAddress: '10.1.1.1',
    });
    expect(failed.statusCode).toBe(401);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: TEST_ADMIN.username, password: CHANGED_PASSWORD },
      remoteAddress: '10.1.1.2',
    });
    expect(ok.statusCode).toBe(200);
    const [success, failure] = await rowsOf('auth.login');
    expect(success).toMatchObject({ actor: 'admin', ok: true, address: '10.1.1.2' });
    expect(failure).toMatchObject({
      actor: 'admin',
      ok: false,
      status: 401,
      error: 'Invalid username or password',
      address: '10.1.1.1',
    });
    const stored = JSON.stringify(rawRows());
    expect(stored).not.toContain(wrong);
    expect(stored).not.toContain(CHANGED_PASSWORD);
  });

  it('caps an attempted username', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      payload: { username: 'u'.repeat(5000), password: 'x' },
    });
    const [row] = await rowsOf('auth.login');
    expect(row?.actor?.length).toBeLessThanOrEqual(100);
  });
});

describe('API keys', () => {
  it('records a write made with a key under the key name, and only admins read the log', async () => {
    const make = async (name: string, scope: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/api-keys',
          headers: { cookie },
          payload: { name, scope, expires_at: null },
        })
      ).json<CreatedApiKey>().key;
    const adminKey = await make('ci-audit', 'admin');
    const readKey = await make('reader-audit', 'read');
    // a creation is named from its answer: its id and name, never the new key
    const [reader, admin] = await rowsOf('api-keys.create');
    expect(admin?.target).toMatch(/^api-keys \d+ \(ci-audit\)$/);
    expect(reader?.target).toMatch(/^api-keys \d+ \(reader-audit\)$/);
    await t.app.services.audit.flush();
    const stored = JSON.stringify(rawRows());
    expect(stored).not.toContain(adminKey);
    expect(stored).not.toContain(readKey);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { authorization: `Bearer ${adminKey}` },
      payload: { polling_interval: 3 },
    });
    expect(res.statusCode).toBe(200);
    expect((await rowsOf('settings.update'))[0]).toMatchObject({
      actor: 'admin',
      api_key: 'ci-audit',
      ok: true,
    });
    expect((await audit('?user=ci-audit')).entries.every((e) => e.api_key === 'ci-audit')).toBe(
      true,
    );
    const asReader = await t.app.inject({
      url: '/api/audit',
      headers: { authorization: `Bearer ${readKey}` },
    });
    expect(asReader.statusCode).toBe(403);
    const asAdmin = await t.app.inject({
      url: '/api/audit/export.csv',
      headers: { authorization: `Bearer ${adminKey}` },
    });
    expect(asAdmin.statusCode).toBe(200);
  });
});

describe('filters and pages', () => {
  it('filters by user, action start, target text, result and time, and pages', async () => {
    const all = await audit('?limit=1000');
    const is = (pred: (e: AuditEntry) => boolean) => all.entries.filter(pred).length;
    expect((await audit('?user=admin&limit=1000')).total_count).toBe(
      is((e) => e.actor === 'admin' || e.api_key === 'admin'),
    );
    expect((await audit('?action=container.')).total_count).toBe(
      is((e) => e.action.startsWith('container.')),
    );
    expect((await audit('?target=edge-aud')).total_count).toBe(
      is((e) => e.host_name === 'edge-audit'),
    );
    expect((await audit('?result=error')).total_count).toBe(is((e) => !e.ok));
    expect((await audit('?result=ok')).total_count).toBe(is((e) => e.ok));
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await audit(`?from=${future}`)).total_count).toBe(0);
    expect((await audit(`?to=${future}`)).total_count).toBe(all.total_count);
    // `%` and `_` match as typed
    expect((await audit('?target=%25')).total_count).toBe(0);
    const page = await audit('?limit=2&offset=1');
    expect(page.entries.map((e) => e.id)).toEqual(all.entries.slice(1, 3).map((e) => e.id));
    expect(page.total_count).toBe(all.total_count);
  });

  it('refuses bad filters naming the field', async () => {
    for (const query of ['?result=maybe', '?from=yesterday', '?limit=0', '?colour=red']) {
      const res = await t.app.inject({ url: `/api/audit${query}`, headers: { cookie } });
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ detail: string }>().detail).toBeTruthy();
    }
  });
});

describe('shutdown', () => {
  it('writes queued rows when the app closes', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie },
      payload: { polling_interval: 4 },
    });
    const before = rawRows().length;
    await t.restart();
    expect(rawRows().length).toBeGreaterThan(before);
    expect(rawRows().at(-1)).toMatchObject({ action: 'settings.update', ok: 1 });
  });
});
