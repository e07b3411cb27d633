import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openLiveClient } from '../../test/live-client.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

/** Milliseconds between consecutive times. */
const gaps = (times: number[]) => times.slice(1).map((t, i) => t - (times[i] ?? t));

/** A loopback release feed announcing whatever `feedBody` holds. */
let feedBody = '';
let feed: Server;
let feedUrl: string;
beforeAll(async () => {
  feed = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(feedBody);
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/latest.json`;
});
afterAll(() => new Promise<void>((resolve) => feed.close(() => resolve())));

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start(env: Record<string, string> = {}) {
  t = await buildTestApp(env);
  const cookie = await signedInCookie(t.app);
  const app = t.app;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return { app, cookie, call };
}

describe('release feed in the settings answer', () => {
  it('announces a newer version with its notes address', async () => {
    feedBody = JSON.stringify({ version: '99.0.0', url: 'https://example.com/r/99', notes: 'New' });
    const { app, call } = await start({ BERTH_RELEASE_FEED_URL: feedUrl });
    await app.services.release.check();
    expect((await call('GET', '/api/settings')).json()).toMatchObject({
      update_available: true,
      latest_available_version: '99.0.0',
      latest_release_url: 'https://example.com/r/99',
      dismissed_dockmon_update_version: null,
    });
  });

  it.each([
    [
      'an older version',
      JSON.stringify({ version: '0.0.1', url: 'https://x.example/', notes: '' }),
    ],
    ['malformed JSON', '{"version":'],
  ])('%s: no update', async (_name, body) => {
    feedBody = body;
    const { app, call } = await start({ BERTH_RELEASE_FEED_URL: feedUrl });
    await app.services.release.check();
    expect((await call('GET', '/api/settings')).json()).toMatchObject({
      update_available: false,
      latest_available_version: null,
      latest_release_url: null,
    });
  });

  it('dismisses per version on both paths and refuses bad input naming the field', async () => {
    const { call } = await start();
    for (const path of ['/api/user/dismiss-dockmon-update', '/api/user/dismiss-update']) {
      const version = path.endsWith('dockmon-update') ? '2.0.0' : '2.1.0';
      const res = await call('POST', path, { version });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ dismissed_dockmon_update_version: version });
      for (const bad of [{}, { version: '' }, { version: 7 }, { version: 'x'.repeat(51) }]) {
        const refused = await call('POST', path, bad);
        expect(refused.statusCode).toBe(400);
        expect(refused.json<{ detail: string }>().detail).toMatch(/^Version /);
      }
      expect((await call('POST', path, { version: '3.0.0', extra: 1 })).statusCode).toBe(400);
    }
    expect((await call('GET', '/api/settings')).json()).toMatchObject({
      dismissed_dockmon_update_version: '2.1.0',
    });
  });
});

describe('upgrade notice', () => {
  it('shows nothing on a first install, and after an upgrade until dismissed', async () => {
    const { app, call } = await start();
    const version = app.services.version;
    expect((await call('GET', '/api/upgrade-notice')).json()).toEqual({
      version,
      show_notice: false,
    });
    // Simulate an upgrade: this user last saw an older Berth.
    await app.services.db.updateTable('user_seen_versions').set({ version: '0.0.1' }).execute();
    expect((await call('GET', '/api/upgrade-notice')).json()).toEqual({
      version,
      show_notice: true,
    });
    const dismissed = await call('POST', '/api/upgrade-notice/dismiss', {});
    expect(dismissed.statusCode).toBe(200);
    expect(dismissed.json()).toEqual({ version, show_notice: false });
    expect((await call('GET', '/api/upgrade-notice')).json()).toMatchObject({ show_notice: false });
    // A downgrade shows nothing and keeps the newer version as seen.
    await app.services.db.updateTable('user_seen_versions').set({ version: '999.0.0' }).execute();
    expect((await call('GET', '/api/upgrade-notice')).json()).toMatchObject({ show_notice: false });
    await call('POST', '/api/upgrade-notice/dismiss', {});
    const row = await app.services.db
      .selectFrom('user_seen_versions')
      .select('version')
      .executeTakeFirstOrThrow();
    expect(row.version).toBe('999.0.0');
  });

  it('refuses a dismissal with a body and answers 401 without a session', async () => {
    const { app, call } = await start();
    const res = await call('POST', '/api/upgrade-notice/dismiss', { version: '1.0.0' });
    expect(res.statusCode).toBe(400);
    expect((await app.inject({ url: '/api/upgrade-notice' })).statusCode).toBe(401);
  });
});

describe('polling interval', () => {
  it('a changed interval sets the containers_update cadence from the next tick', async () => {
    const { app, cookie, call } = await start();
    await app.listen({ port: 0, host: '127.0.0.1' });
    await call('PUT', '/api/settings', { polling_interval: 1 });
    const live = await openLiveClient(app, cookie);
    const updates = () =>
      live.messages
        // The full state on connect is not a tick; the deltas after it are.
        .filter((m) => m.message.type === 'containers_update' && !m.message.data.full)
        .map((m) => m.at);
    try {
      // The tick scheduled while nobody watched may be up to the idle period away.
      await waitFor('four updates', () => updates().length >= 4, 20_000);
      for (const gap of gaps(updates())) {
        expect(gap).toBeGreaterThan(700);
        expect(gap).toBeLessThan(1600);
      }
      await call('PUT', '/api/settings', { polling_interval: 3 });
      const changedAt = updates().length;
      await waitFor('three more updates', () => updates().length >= changedAt + 3, 15_000);
      // The tick under way, then the new cadence.
      for (const gap of gaps(updates().slice(changedAt))) {
        expect(gap).toBeGreaterThan(2500);
        expect(gap).toBeLessThan(3600);
      }
    } finally {
      live.close();
    }
  }, 45_000);
});
