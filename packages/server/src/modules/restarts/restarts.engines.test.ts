import { randomBytes } from 'node:crypto';
import type { Container, EventsResponse, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { restartingHealthCheck } from '../../test/health-check-body.js';
import { dockerCli, endpointOf, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;
const engine = rigEngine('tls');
const made: string[] = [];

const startedAt = (name: string) =>
  dockerCli(engine, ['inspect', '-f', '{{.State.StartedAt}}', name]);
const running = (name: string) =>
  dockerCli(engine, ['inspect', '-f', '{{.State.Running}}', name]) === 'true';
const titles = async (name: string) =>
  (
    await api.get<EventsResponse>(`/events?container_name=${name}&limit=100&sort_order=asc`)
  ).body.events.map((e) => `${e.title} | ${e.message ?? ''}`);

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  expect((await api.put('/settings', { retry_delay: 5, max_retries: 5 })).status).toBe(200);
  const tls = endpointOf(engine).tls;
  host = (
    await api.post<Host>('/hosts', {
      name: 'tls',
      url: engine.url,
      tls_ca: tls?.ca ?? null,
      tls_cert: tls?.cert ?? null,
      tls_key: tls?.key ?? null,
    })
  ).body;
  await waitFor(
    'host online',
    async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
    30_000,
  );
});
afterAll(async () => {
  for (const name of made) dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

describe('one restart budget per container', { timeout: 120_000 }, () => {
  it('counts an auto-restart and a health-check restart of one container together', async () => {
    // Two automatic restarts per window instead of 12, so the test does not wait for twelve.
    t.app.services.restartBudgets.window = { windowMs: 600_000, max: 2 };
    const name = `berth-rb-${randomBytes(4).toString('hex')}`;
    const id = dockerCli(engine, ['run', '-d', '--name', name, readRig().images.httpd]).slice(
      0,
      12,
    );
    made.push(name);
    await waitFor('container listed', async () =>
      (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body.some((c) => c.id === id),
    );
    expect(
      (await api.post(`/hosts/${host.id}/containers/${id}/auto-restart`, { enabled: true })).status,
    ).toBe(200);
    // A check that always fails: the page is gone and stays gone across restarts.
    dockerCli(engine, ['exec', name, 'rm', '/www/health']);
    const saved = await api.put(
      `/containers/${host.id}/${id}/http-health-check`,
      restartingHealthCheck({ max_restart_attempts: 5 }),
    );
    expect(saved.status).toBe(200);

    // 1: auto-restart brings the killed container back.
    dockerCli(engine, ['kill', name]);
    await waitFor(
      'auto-restarted',
      async () =>
        (await titles(name)).some((e) => e.startsWith(`Container auto-restarted: ${name}`)),
      20_000,
    );
    await waitFor('running again', () => running(name), 10_000);
    // 2: the health check restarts it (its own episode allows five).
    const before = startedAt(name);
    await waitFor(
      'restarted by the health check',
      async () =>
        (await titles(name)).some((e) =>
          e.startsWith(`Container restarted by health check: ${name}`),
        ),
      60_000,
    );
    expect(startedAt(name)).not.toBe(before);
    // 3: killed again, auto-restart finds the shared budget used up and says so once.
    dockerCli(engine, ['kill', name]);
    await waitFor(
      'auto-restart refused',
      async () =>
        (await titles(name)).some(
          (e) =>
            e.startsWith(`Auto-restart failed: ${name}`) &&
            e.endsWith('2 restarts in the last 10 minutes (safety window)'),
        ),
      20_000,
    );
    expect(running(name)).toBe(false);
  });
});
