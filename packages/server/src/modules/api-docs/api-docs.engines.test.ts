import { randomBytes } from 'node:crypto';
import type { BatchJob, Container, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, endpointOf, IDLE, rigEngine, runBusybox } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';
import { answerChecker, fetchDocument } from './openapi-check.js';

/**
 * The real answers of the main routes, over a rig engine, checked against the response schemas
 * of the document Berth serves: the document cannot drift from what the code sends.
 */
let t: TestApp;
let cookie: string;
let check: ReturnType<typeof answerChecker>;
let host: Host;
let container: Container;
const engine = rigEngine('plain');
const name = `berth-apidocs-${randomBytes(4).toString('hex')}`;
const checked: string[] = [];

/**
 * Calls a route (`/api/hosts/:id` with its params) and checks its answer against the
 * document's schema for that operation and status; answers the body.
 */
async function call<T>(
  method: 'GET' | 'POST' | 'PUT',
  route: string,
  params: Record<string, string> = {},
  options: { query?: string; payload?: object } = {},
): Promise<{ status: number; body: T }> {
  const url = route.replace(/:([A-Za-z_]+)/g, (_m, key: string) => params[key] ?? `:${key}`);
  const res = await t.app.inject({
    method,
    url: `${url}${options.query ?? ''}`,
    headers: { cookie },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  });
  const body = res.json<T>();
  expect(check(method, route, res.statusCode, body), `${method} ${url}`).toEqual([]);
  checked.push(`${method} ${route} ${res.statusCode}`);
  return { status: res.statusCode, body };
}

beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
  check = answerChecker(await fetchDocument(t.app, cookie));
  // Idle (so the batch restart is quick) after a line of logs to read.
  runBusybox(engine, name, {
    command: `echo hello-docs; ${IDLE}`,
    options: ['--label', 'berth.apidocs=1'],
  });
  const tls = endpointOf(engine).tls;
  host = (
    await call<Host>(
      'POST',
      '/api/hosts',
      {},
      {
        payload: {
          name: `apidocs-${randomBytes(3).toString('hex')}`,
          url: engine.url,
          tls_ca: tls?.ca ?? null,
        },
      },
    )
  ).body;
  container = await waitFor('container listed', async () => {
    const res = await t.app.inject({
      url: `/api/containers?host_id=${host.id}`,
      headers: { cookie },
    });
    return res.json<Container[]>().find((c) => c.name === name && c.state === 'running');
  });
}, 60_000);
afterAll(async () => {
  dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

describe('real answers match the OpenAPI document', () => {
  it('hosts, containers and logs', async () => {
    const hosts = await call<Host[]>('GET', '/api/hosts');
    expect(hosts.body.some((h) => h.id === host.id)).toBe(true);
    await call('GET', '/api/hosts/:id', { id: host.id });
    const list = await call<Container[]>(
      'GET',
      '/api/containers',
      {},
      { query: `?host_id=${host.id}` },
    );
    expect(list.body.length).toBeGreaterThan(0);
    const ids = { hostId: host.id, containerId: container.id };
    const logs = await call<{ logs: { log: string }[] }>(
      'GET',
      '/api/hosts/:hostId/containers/:containerId/logs',
      ids,
    );
    expect(logs.body.logs.map((l) => l.log)).toContain('hello-docs');
    await call('GET', '/api/hosts/:hostId/containers/:containerId/update-status', ids);
    await call('GET', '/api/updates/summary');
  });

  it('events, alerts and their stats', async () => {
    await waitFor('an event of the container', async () => {
      const res = await call<{ events: unknown[] }>(
        'GET',
        '/api/events',
        {},
        {
          query: `?host_id=${host.id}`,
        },
      );
      return res.body.events.length > 0;
    });
    const rule = await call<{ id: number }>(
      'POST',
      '/api/alerts/rules',
      {},
      {
        payload: {
          name: 'apidocs',
          scope: 'container',
          kind: 'update_available',
          severity: 'warning',
        },
      },
    );
    await t.app.services.alerts.signal({
      kind: 'update_available',
      hostId: host.id,
      containerName: name,
      active: true,
      message: 'busybox:next is out',
    });
    const alerts = await call<{ alerts: unknown[] }>('GET', '/api/alerts');
    expect(alerts.body.alerts.length).toBeGreaterThan(0);
    await call('GET', '/api/alerts/stats');
    await call('GET', '/api/alerts/rules/:id', { id: String(rule.body.id) });
  });

  it('settings, health checks and notification channels', async () => {
    await call('GET', '/api/settings');
    const ids = { hostId: host.id, containerId: container.id };
    await call('PUT', '/api/containers/:hostId/:containerId/http-health-check', ids, {
      payload: { enabled: false, url: 'http://127.0.0.1:9/health' },
    });
    await call('GET', '/api/containers/:hostId/:containerId/http-health-check', ids);
    await call('GET', '/api/health-check-configs');
    await call(
      'POST',
      '/api/notifications/channels',
      {},
      {
        payload: { name: 'apidocs', type: 'webhook', config: { url: 'http://127.0.0.1:9/in' } },
      },
    );
    const channels = await call<unknown[]>('GET', '/api/notifications/channels');
    expect(channels.body.length).toBe(1);
  });

  it('a batch job, created and read until it ends', async () => {
    const created = await call<{ job_id: string }>(
      'POST',
      '/api/batch',
      {},
      {
        payload: { scope: 'container', action: 'restart', ids: [`${host.id}:${container.id}`] },
      },
    );
    await waitFor(
      'job finished',
      async () => {
        const job = await call<BatchJob>('GET', '/api/batch/:jobId', {
          jobId: created.body.job_id,
        });
        return job.body.status === 'completed' || job.body.status === 'failed';
      },
      60_000,
      200,
    );
  });

  it('error answers', async () => {
    expect((await call('GET', '/api/hosts/:id', { id: 'no-such-host' })).status).toBe(404);
    expect((await call('GET', '/api/events', {}, { query: '?limit=nope' })).status).toBe(400);
    expect(checked.length).toBeGreaterThan(15);
    // The check bites: an answer the contract would refuse is refused by the document too.
    expect(check('GET', '/api/hosts/:id', 200, { ...host, status: 'sinking' })).not.toEqual([]);
    expect(check('GET', '/api/containers', 200, [{ id: 1 }])).not.toEqual([]);
  });
});
