import { randomBytes } from 'node:crypto';
import type { Container, CreatedApiKey, EventsResponse, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { listenOnLoopback } from '../../test/listen.js';
import { dockerCli, rigEngine, runBusybox } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

/** Keys against a real engine, over a real listening server: what scripts and CI do. */
let t: TestApp;
let base: string;
let host: Host;
const engine = rigEngine('plain');
const name = `berth-apikey-${randomBytes(4).toString('hex')}`;
let shortId: string;
const keys: Record<'read' | 'operate', string> = { read: '', operate: '' };

const call = (key: string, method: 'GET' | 'POST', path: string) =>
  fetch(`${base}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { body: '{}' } : {}),
    signal: AbortSignal.timeout(30_000),
  });

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t.app);
  const cookie = await signedInCookie(t.app);
  const api = apiClient(t.app, cookie);
  for (const scope of ['read', 'operate'] as const) {
    keys[scope] = (
      await api.post<CreatedApiKey>('/api-keys', { name: `${scope} bot`, scope })
    ).body.key;
  }
  host = (await api.post<Host>('/hosts', { name: 'plain', url: engine.url })).body;
  shortId = runBusybox(engine, name);
}, 60_000);
afterAll(async () => {
  dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

describe('API keys on an engine', { timeout: 60_000 }, () => {
  it('an operate key lists containers and restarts one; a read key is refused the restart', async () => {
    const listed = async (key: string) => {
      const res = await call(key, 'GET', `/containers?host_id=${host.id}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as Container[]).find((c) => c.id === shortId);
    };
    await waitFor(
      'container listed',
      async () => (await listed(keys.operate)) !== undefined,
      30_000,
    );
    expect((await listed(keys.read))?.name).toBe(name);
    const startedAt = dockerCli(engine, ['inspect', '-f', '{{.State.StartedAt}}', name]);

    const restart = `/hosts/${host.id}/containers/${shortId}/restart`;
    const refused = await call(keys.read, 'POST', restart);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      detail: 'This API key\'s scope is "read"; this route needs "operate"',
    });
    expect(dockerCli(engine, ['inspect', '-f', '{{.State.StartedAt}}', name])).toBe(startedAt);

    const done = await call(keys.operate, 'POST', restart);
    expect(done.status, await done.clone().text()).toBe(200);
    expect(dockerCli(engine, ['inspect', '-f', '{{.State.StartedAt}}', name])).not.toBe(startedAt);

    const events = await call(
      keys.read,
      'GET',
      `/events?event_type=action_taken&container_name=${name}`,
    );
    const [event] = ((await events.json()) as EventsResponse).events;
    expect(event).toMatchObject({
      title: `Container restarted by admin (API key "operate bot"): ${name}`,
      triggered_by: 'admin (API key "operate bot")',
    });
  });
});
