import type { CreatedApiKey, GlobalSettings } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { userSignedIn } from '../../test/users.js';

/**
 * The viewer_logs setting decides whether viewers read container logs; operators and admins
 * always may. A host that does not exist answers 404 once the guard let the caller through,
 * so 404 here means "allowed" and 403 "refused by the setting".
 */
let t: TestApp;
const cookies: Record<'admin' | 'operator' | 'viewer', string> = {
  admin: '',
  operator: '',
  viewer: '',
};
let viewerKey = '';
beforeAll(async () => {
  t = await buildTestApp();
  cookies.admin = await signedInCookie(t.app);
  cookies.operator = (await userSignedIn(t.app, cookies.admin, 'logs-op', 'operator')).cookie;
  cookies.viewer = (await userSignedIn(t.app, cookies.admin, 'logs-viewer', 'viewer')).cookie;
  const key = await t.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: { cookie: cookies.viewer },
    payload: { name: 'viewer logs key', scope: 'read' },
  });
  viewerKey = key.json<CreatedApiKey>().key;
});
afterAll(() => t.close());

const LOGS = '/api/hosts/no-such-host/containers/abcdef123456/logs?tail=10';
const logsAs = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: LOGS, headers });
const setViewerLogs = (cookie: string, on: boolean) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie },
    payload: { viewer_logs: on },
  });
const REFUSED = {
  detail: 'Viewers cannot read container logs: an admin has not allowed it (Settings → System)',
};

describe('viewer_logs', () => {
  it('is off by default: viewers (and their keys) are refused with a reason, others are not', async () => {
    const settings = await t.app.inject({
      url: '/api/settings',
      headers: { cookie: cookies.viewer },
    });
    expect(settings.json<GlobalSettings>().viewer_logs).toBe(false);
    const viewer = await logsAs({ cookie: cookies.viewer });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toEqual(REFUSED);
    const key = await logsAs({ authorization: `Bearer ${viewerKey}` });
    expect(key.statusCode).toBe(403);
    expect(key.json()).toEqual(REFUSED);
    for (const role of ['operator', 'admin'] as const) {
      const res = await logsAs({ cookie: cookies[role] });
      expect(res.statusCode, role).toBe(404);
    }
  });

  it('lets viewers read logs once an admin turns it on, and only an admin may', async () => {
    const refused = await setViewerLogs(cookies.viewer, true);
    expect(refused.statusCode).toBe(403);
    expect((await setViewerLogs(cookies.operator, true)).statusCode).toBe(403);
    const saved = await setViewerLogs(cookies.admin, true);
    expect(saved.json<GlobalSettings>().viewer_logs).toBe(true);
    expect((await logsAs({ cookie: cookies.viewer })).statusCode).toBe(404);
    expect((await logsAs({ authorization: `Bearer ${viewerKey}` })).statusCode).toBe(404);
    // Off again: the next request is refused, no sign-in needed.
    await setViewerLogs(cookies.admin, false);
    expect((await logsAs({ cookie: cookies.viewer })).statusCode).toBe(403);
    expect((await logsAs({ cookie: cookies.operator })).statusCode).toBe(404);
  });

  it('refuses a value that is not a boolean, naming the field', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: cookies.admin },
      payload: { viewer_logs: 'yes' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toBe('Viewer logs must be true or false');
  });
});
