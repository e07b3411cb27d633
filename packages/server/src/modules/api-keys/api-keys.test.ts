import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ApiKeyScope, ApiKeysResponse, CreatedApiKey } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../db/database.js';
import { captureLog } from '../../test/log-capture.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

/** Create, list and revoke; what a key may and may not do; what it leaves behind. */
let t: TestApp;
let cookie: string;
let logLines: Record<string, unknown>[];
beforeAll(async () => {
  t = await buildTestApp({ BERTH_LOG_LEVEL: 'info', BERTH_LOG_FORMAT: 'json' });
  logLines = captureLog(t.app);
  cookie = await signedInCookie(t.app);
});
afterAll(() => t.close());

const INVALID = { detail: 'Invalid API key' };

async function createKey(
  name: string,
  scope: ApiKeyScope = 'read',
  expires_at: string | null = null,
): Promise<CreatedApiKey> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: { cookie },
    payload: { name, scope, expires_at },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedApiKey>();
}

const withKey = (key: string, url = '/api/hosts', remoteAddress = '10.0.0.1') =>
  t.app.inject({ url, headers: { authorization: `Bearer ${key}` }, remoteAddress });

const listKeys = async () =>
  (await t.app.inject({ url: '/api/api-keys', headers: { cookie } })).json<ApiKeysResponse>().keys;

/** Reads the database file itself, beside the app's own connection. */
function keyRows(): Record<string, unknown>[] {
  const file = new Database(join(t.config.dataDir, DATABASE_FILE), { readonly: true });
  try {
    return file.prepare('SELECT * FROM api_keys').all() as Record<string, unknown>[];
  } finally {
    file.close();
  }
}

describe('managing keys', () => {
  it('creates a key shown once, lists it without the key and keeps only its hash', async () => {
    const created = await createKey('ci deploy', 'operate');
    expect(created.key).toMatch(/^berth_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: 'ci deploy', scope: 'operate', created_by: 'admin' });
    expect(created.prefix).toBe(created.key.slice(0, 10));
    expect(created.last_used_at).toBeNull();

    const listed = (await listKeys()).find((k) => k.id === created.id);
    expect(listed).toEqual({ ...created, key: undefined });
    expect(JSON.stringify(await listKeys())).not.toContain(created.key);

    const row = keyRows().find((r) => r.id === created.id);
    expect(row?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(keyRows())).not.toContain(created.key.slice(10));
  });

  it('records when a key was last used', async () => {
    const created = await createKey('last used');
    expect((await withKey(created.key)).statusCode).toBe(200);
    const listed = (await listKeys()).find((k) => k.id === created.id);
    expect(Date.parse(listed?.last_used_at ?? '')).toBeGreaterThan(Date.now() - 10_000);
  });

  it('refuses bad input naming the field', async () => {
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/api-keys', headers: { cookie }, payload });
    await createKey('taken name');
    const cases: [object, number, string][] = [
      [{ name: '', scope: 'read' }, 400, 'Name is required'],
      [{ name: 'x', scope: 'root' }, 400, 'Scope must be one of read, operate, admin'],
      [
        { name: 'x', scope: 'read', expires_at: 'soon' },
        400,
        'Expiry must be an ISO date and time',
      ],
      [
        { name: 'x', scope: 'read', expires_at: '2001-01-01T00:00:00Z' },
        400,
        'Expiry must be in the future',
      ],
      [{ name: 'taken name', scope: 'read' }, 409, 'An API key with this name already exists'],
    ];
    for (const [payload, status, detail] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json(), JSON.stringify(payload)).toEqual({ detail });
    }
  });

  it('revokes a key, which then answers 401; revoking it again is 404', async () => {
    const created = await createKey('to revoke');
    expect((await withKey(created.key)).statusCode).toBe(200);
    const del = () =>
      t.app.inject({ method: 'DELETE', url: `/api/api-keys/${created.id}`, headers: { cookie } });
    expect((await del()).statusCode).toBe(200);
    expect((await listKeys()).some((k) => k.id === created.id)).toBe(false);
    const res = await withKey(created.key);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
    expect((await del()).statusCode).toBe(404);
  });
});

describe('a bad key', () => {
  it('answers 401 with the same detail whether expired, revoked, malformed or unknown', async () => {
    const expiring = await createKey(
      'expiring',
      'admin',
      new Date(Date.now() + 60_000).toISOString(),
    );
    expect((await withKey(expiring.key)).statusCode).toBe(200);
    await t.app.services.db
      .updateTable('api_keys' as never)
      .set({ expires_at: '2001-01-01T00:00:00.000Z' } as never)
      .where('id' as never, '=', expiring.id as never)
      .execute();
    const revoked = await createKey('revoked');
    await t.app.inject({
      method: 'DELETE',
      url: `/api/api-keys/${revoked.id}`,
      headers: { cookie },
    });

    const bad = [
      expiring.key,
      revoked.key,
      `berth_${'A'.repeat(43)}`,
      'not-a-key',
      `${expiring.key}x`,
      'berth_',
      '',
      'two words',
      `berth_${'A'.repeat(5000)}`,
    ];
    for (const key of bad) {
      const res = await withKey(key, '/api/hosts', '10.0.0.2');
      expect(res.statusCode, key.slice(0, 20)).toBe(401);
      expect(res.json(), key.slice(0, 20)).toEqual(INVALID);
    }
    // A bad key is judged alone: a valid session cookie beside it does not rescue it.
    const both = await t.app.inject({
      url: '/api/hosts',
      headers: { cookie, authorization: 'Bearer nope' },
      remoteAddress: '10.0.0.2',
    });
    expect(both.statusCode).toBe(401);
  });

  it('lets another scheme (Basic from a proxy) leave the request to its cookie', async () => {
    const res = await t.app.inject({
      url: '/api/hosts',
      headers: { cookie, authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('counts per address: 429 with Retry-After after 20, while other addresses go on', async () => {
    const good = await createKey('good neighbour');
    for (let i = 0; i < 20; i++) {
      expect((await withKey(`berth_wrong${i}`, '/api/hosts', '10.9.9.9')).statusCode).toBe(401);
    }
    const limited = await withKey('berth_wrong-again', '/api/hosts', '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await withKey(good.key, '/api/hosts', '10.9.9.8')).statusCode).toBe(200);
  });
});

describe('a parallel burst of bad keys', () => {
  it('gets no more than 20 looked up before the address is refused', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => withKey(`berth_burst${i}`, '/api/hosts', '10.7.7.7')),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(20);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
  });
});

describe('a key request', () => {
  it('passes the origin check on a POST from a foreign origin (no cookie is involved)', async () => {
    const key = (await createKey('foreign admin', 'admin')).key;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/hosts/test-connection',
      headers: { authorization: `Bearer ${key}`, origin: 'http://evil.example' },
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    // The same POST with a session cookie is refused before anything else.
    const withCookie = await t.app.inject({
      method: 'POST',
      url: '/api/hosts/test-connection',
      headers: { cookie, origin: 'http://evil.example' },
      payload: {},
    });
    expect(withCookie.statusCode).toBe(403);
  });

  it('sets no cookie and opens no session', async () => {
    const key = (await createKey('no session')).key;
    const count = async () =>
      Number(
        (
          await t.app.services.db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    for (const url of ['/api/hosts', '/api/v2/auth/me', '/api/settings']) {
      const res = await withKey(key, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['set-cookie'], url).toBeUndefined();
    }
    expect(await count()).toBe(before);
  });

  it("is logged with the key's name and never the key", async () => {
    const created = await createKey('log reader');
    const from = logLines.length;
    expect((await withKey(created.key, '/api/hosts?from=log')).statusCode).toBe(200);
    const lines = logLines.slice(from);
    const completed = lines.find((l) => l.msg === 'request completed');
    expect(completed?.api_key).toBe('log reader');
    expect(JSON.stringify(lines)).not.toContain(created.key.slice(10));
  });

  it('records its changes as the owner acting through the named key', async () => {
    const key = (await createKey('host admin', 'admin')).key;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/hosts',
      headers: { authorization: `Bearer ${key}` },
      payload: { name: 'keyed-host', url: 'tcp://127.0.0.1:1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const events = await t.app.services.db
      .selectFrom('events')
      .select(['event_type', 'triggered_by'])
      .where('event_type', '=', 'host_added')
      .execute();
    expect(events).toContainEqual({
      event_type: 'host_added',
      triggered_by: 'admin (API key "host admin")',
    });
    const id = res.json<{ id: string }>().id;
    await t.app.inject({ method: 'DELETE', url: `/api/hosts/${id}`, headers: { cookie } });
  });
});

describe('a key whose owner is gone', () => {
  it('is invalid: the users table cascades to its keys', async () => {
    const own = await buildTestApp();
    try {
      const ownCookie = await signedInCookie(own.app);
      const res = await own.app.inject({
        method: 'POST',
        url: '/api/api-keys',
        headers: { cookie: ownCookie },
        payload: { name: 'orphan', scope: 'read' },
      });
      const { key } = res.json<CreatedApiKey>();
      const get = () =>
        own.app.inject({ url: '/api/hosts', headers: { authorization: `Bearer ${key}` } });
      expect((await get()).statusCode).toBe(200);
      // After `berth reset-password` the owner's keys wait for the new password, like sessions.
      await own.app.services.db.updateTable('users').set({ is_first_login: 1 }).execute();
      expect((await get()).json()).toEqual({ detail: 'Password change required' });
      await own.app.services.db.deleteFrom('users').execute();
      expect((await get()).statusCode).toBe(401);
      expect(
        await own.app.services.db
          .selectFrom('api_keys' as never)
          .selectAll()
          .execute(),
      ).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe('the number of keys', () => {
  it('is capped at 100, so the table stays a list a person reads', async () => {
    const own = await buildTestApp();
    try {
      const ownCookie = await signedInCookie(own.app);
      const post = (name: string) =>
        own.app.inject({
          method: 'POST',
          url: '/api/api-keys',
          headers: { cookie: ownCookie },
          payload: { name, scope: 'read' },
        });
      for (let i = 0; i < 100; i++) expect((await post(`key ${i}`)).statusCode).toBe(201);
      const refused = await post('one too many');
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        detail: 'At most 100 API keys can exist; revoke one first',
      });
      const created = await own.app.services.db
        .selectFrom('events')
        .select(['title', 'triggered_by'])
        .where('event_type', '=', 'api_key_created')
        .execute();
      expect(created).toHaveLength(100);
      expect(created[0]).toEqual({
        title: 'API key "key 0" created (read)',
        triggered_by: 'admin',
      });
    } finally {
      await own.close();
    }
  });
});
