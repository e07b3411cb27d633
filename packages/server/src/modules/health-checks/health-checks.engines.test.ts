import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { containerKey } from '@berth/contracts';
import type {
  AlertListResponse,
  AlertRule,
  Container,
  EventsResponse,
  HealthCheck,
  HealthCheckConfigs,
  HealthCheckTestResponse,
  Host,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { restartingHealthCheck } from '../../test/health-check-body.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let live: Awaited<ReturnType<typeof openLiveClient>>;
let host: Host;
const engine = rigEngine('plain');
const made: string[] = [];
const servers: { close: () => void }[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A busybox httpd serving /www (with /www/health) on 8080, published on loopback. */
async function httpd(): Promise<{ name: string; id: string; port: string }> {
  const name = `berth-hc-${randomBytes(4).toString('hex')}`;
  const id = dockerCli(engine, [
    'run',
    '-d',
    '--name',
    name,
    '-p',
    '127.0.0.1::8080',
    readRig().images.httpd,
  ]).slice(0, 12);
  made.push(name);
  const port = dockerCli(engine, ['port', name, '8080']).split('\n')[0]?.split(':').at(-1) ?? '';
  await waitFor('container listed', async () =>
    (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body.some((c) => c.id === id),
  );
  return { name, id, port };
}

const startedAt = (name: string) =>
  dockerCli(engine, ['inspect', '-f', '{{.State.StartedAt}}', name]);
const check = async (id: string) =>
  (await api.get<HealthCheck>(`/containers/${host.id}/${id}/http-health-check`)).body;
const eventsOf = async (name: string) =>
  (await api.get<EventsResponse>(`/events?container_name=${name}&limit=100&sort_order=asc`)).body
    .events;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  host = (await api.post<Host>('/hosts', { name: 'plain', url: engine.url })).body;
  await waitFor(
    'host online',
    async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
    30_000,
  );
  live = await openLiveClient(t.app, cookie);
});
afterAll(async () => {
  live.close();
  for (const s of servers) s.close();
  for (const name of made) dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

describe('HTTP health checks against the rig', () => {
  it('answers a disabled default, refuses bad input naming the field', async () => {
    const { id } = await httpd();
    const empty = await check(id);
    expect(empty).toMatchObject({
      configured: false,
      enabled: false,
      url: '',
      method: 'GET',
      expected_status_codes: '200',
      timeout_seconds: 10,
      check_interval_seconds: 60,
      follow_redirects: true,
      verify_ssl: true,
      failure_threshold: 3,
      success_threshold: 1,
      max_restart_attempts: 3,
      restart_retry_delay_seconds: 120,
      current_status: 'unknown',
    });
    const put = (body: object) => api.put(`/containers/${host.id}/${id}/http-health-check`, body);
    const bad: [object, string][] = [
      [{ timeout_seconds: 3 }, 'Timeout must be between 5 and 60 seconds'],
      [{ check_interval_seconds: 5 }, 'Interval must be between 10 and 3600 seconds'],
      [{ failure_threshold: 11 }, 'Failure threshold must be between 1 and 10'],
      [{ success_threshold: 0 }, 'Success threshold must be between 1 and 10'],
      [{ max_restart_attempts: 0 }, 'Max restart attempts must be between 1 and 10'],
      [{ restart_retry_delay_seconds: 10 }, 'Retry delay must be between 30 and 600 seconds'],
      [
        { expected_status_codes: '2xx' },
        "Expected status codes: Use '200', '200-299' or '200,201,204' (codes 100-599)",
      ],
      [
        { expected_status_codes: '299-200' },
        "Expected status codes: Use '200', '200-299' or '200,201,204' (codes 100-599)",
      ],
      [{ url: 'ftp://x' }, 'URL must start with http:// or https://'],
      [{ url: 'http://a b/' }, 'URL must not contain spaces'],
      [{ enabled: true }, 'URL is required'],
      [{ method: 'PUT' }, 'Method must be GET, POST or HEAD'],
      [{ headers_json: '{nope' }, 'Headers must be valid JSON'],
      [{ headers_json: '{"X":1}' }, 'Header X must have a string value'],
      [
        { auth_config_json: '{"type":"digest"}' },
        'Auth config must be {"type":"basic","username","password"} or {"type":"bearer","token"}',
      ],
    ];
    for (const [body, detail] of bad) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ detail });
    }
    expect((await api.get(`/containers/${host.id}/nope/http-health-check`)).status).toBe(404);
  });

  it('keeps headers and auth sealed at rest, masked in answers, kept when sent back masked', async () => {
    const { id } = await httpd();
    let seen: IncomingHttpHeaders = {};
    const capture: Server = createServer((req, res) => {
      seen = req.headers;
      res.end('ok');
    });
    servers.push(capture);
    await new Promise<void>((r) => capture.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(capture.address() as AddressInfo).port}/`;
    const saved = await api.put<HealthCheck>(`/containers/${host.id}/${id}/http-health-check`, {
      enabled: false,
      url,
      headers_json: '{"X-Api-Key":"s3cret-key"}',
      auth_config_json: '{"type":"basic","username":"ops","password":"pa55-word"}',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.headers_json).toBe('{"X-Api-Key":"********"}');
    expect(JSON.parse(saved.body.auth_config_json ?? '')).toEqual({
      type: 'basic',
      username: 'ops',
      password: '********',
    });
    const db = readFileSync(join(t.config.dataDir, 'berth.db')).toString('latin1');
    const wal = readFileSync(join(t.config.dataDir, 'berth.db-wal')).toString('latin1');
    expect(db + wal).not.toContain('s3cret-key');
    expect(db + wal).not.toContain('pa55-word');
    // Saved again with the masked values: the secrets stay, and the test call sends them.
    await api.put(`/containers/${host.id}/${id}/http-health-check`, {
      url,
      headers_json: saved.body.headers_json,
      auth_config_json: saved.body.auth_config_json,
    });
    const test = await api.post<HealthCheckTestResponse>(
      `/containers/${host.id}/${id}/http-health-check/test`,
      { url, headers_json: saved.body.headers_json, auth_config_json: saved.body.auth_config_json },
    );
    expect(test.body.test_result.is_healthy).toBe(true);
    expect(seen['x-api-key']).toBe('s3cret-key');
    expect(seen.authorization).toBe(`Basic ${Buffer.from('ops:pa55-word').toString('base64')}`);
  });

  it('tests once without saving: healthy via the published port, timed out on a silent port', async () => {
    const { id, port } = await httpd();
    const test = (body: object) =>
      api.post<HealthCheckTestResponse>(
        `/containers/${host.id}/${id}/http-health-check/test`,
        body,
      );
    const ok = await test({ url: `http://127.0.0.1:${port}/health` });
    expect(ok.status).toBe(200);
    expect(ok.body.test_result).toMatchObject({
      is_healthy: true,
      message: 'Received status 200 (matches expected)',
      status_code: 200,
    });
    expect(ok.body.test_result.response_time_ms).toBeGreaterThanOrEqual(0);
    expect((await check(id)).configured).toBe(false);
    const missing = await test({ url: `http://{container_ip}:8080/missing` });
    expect(missing.body.test_result).toMatchObject({
      is_healthy: false,
      message: 'Received status 404 (expected: 200)',
    });
    expect(missing.body.test_result.resolved_url).toMatch(
      /^http:\/\/\d+\.\d+\.\d+\.\d+:8080\/missing$/,
    );
    // A port that takes the connection and never answers (dropped traffic looks the same).
    const silent = createTcpServer(() => undefined);
    servers.push(silent);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const at = Date.now();
    const hung = await test({
      url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`,
      timeout_seconds: 5,
    });
    expect(hung.body.test_result).toMatchObject({
      is_healthy: false,
      message: 'Timed out after 5s',
    });
    expect(Date.now() - at).toBeLessThan(7000);
    expect((await test({ url: '' })).body).toEqual({ detail: 'URL is required' });
  });

  it(
    'healthy; file removed: unhealthy, event, alert, one restart after the delay (episode cap 1); file back: healthy, alert resolved',
    { timeout: 150_000 },
    async () => {
      const { name, id } = await httpd();
      const rule = await api.post<AlertRule>('/alerts/rules', {
        name: `hc-${name}`,
        scope: 'container',
        kind: 'health_check_failed',
        severity: 'error',
        container_selector_json: { include: [name] },
      });
      expect(rule.status).toBe(200);
      const saved = await api.put<HealthCheck>(
        `/containers/${host.id}/${id}/http-health-check`,
        restartingHealthCheck(),
      );
      expect(saved.status).toBe(200);
      await waitFor('healthy', async () => (await check(id)).current_status === 'healthy', 5000);
      const healthy = await check(id);
      expect(healthy.resolved_url).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:8080\/health$/);
      expect(healthy.last_response_time_ms).not.toBeNull();
      const configs = (await api.get<HealthCheckConfigs>('/health-check-configs')).body;
      expect(configs[containerKey(host.id, id)]).toEqual({
        enabled: true,
        current_status: 'healthy',
        consecutive_failures: 0,
      });

      const before = startedAt(name);
      dockerCli(engine, ['exec', name, 'rm', '/www/health']);
      await waitFor(
        'unhealthy',
        async () => (await check(id)).current_status === 'unhealthy',
        15_000,
      );
      const unhealthyAt = Date.now();
      const sick = await check(id);
      expect(sick.last_error_message).toBe('Received status 404 (expected: 200)');
      expect(sick.consecutive_failures).toBe(1);
      // The status is stored first, then the event recorded and the change published:
      // the stored status can be read before either has happened.
      await waitFor('status change published', () =>
        live.messages.some(
          (m) =>
            m.message.type === 'health_check_status_changed' &&
            m.message.data.container_name === name &&
            m.message.data.new_status === 'unhealthy',
        ),
      );
      const failing = await waitFor('failing event', async () =>
        (await eventsOf(name)).find((e) => e.title === `Health check failing: ${name}`),
      );
      expect(failing).toMatchObject({
        category: 'health_check',
        old_state: 'healthy',
        new_state: 'unhealthy',
      });
      await waitFor('alert raised', async () => {
        const open = (await api.get<AlertListResponse>(`/alerts/?rule_id=${rule.body.id}`)).body;
        return open.alerts.some((a) => a.state === 'open');
      });

      // One restart, not before the 30 s delay.
      await waitFor('restarted by the health check', () => startedAt(name) !== before, 45_000);
      expect(Date.now() - unhealthyAt).toBeGreaterThanOrEqual(29_000);
      const restartedAt = startedAt(name);
      await waitFor('restart event', async () =>
        (await eventsOf(name)).some(
          (e) => e.title === `Container restarted by health check: ${name}`,
        ),
      );
      // The file is still gone after the restart: the episode's single restart is used up.
      await waitFor(
        'gave up',
        async () =>
          (await eventsOf(name)).some((e) => e.title === `Berth gave up restarting ${name}`),
        45_000,
      );
      expect(startedAt(name)).toBe(restartedAt);
      expect((await check(id)).restart_attempts).toBe(1);

      dockerCli(engine, ['exec', name, 'sh', '-c', 'echo ok > /www/health']);
      await waitFor(
        'healthy again',
        async () => (await check(id)).current_status === 'healthy',
        15_000,
      );
      await waitFor('alert resolved', async () => {
        const all = (await api.get<AlertListResponse>(`/alerts/?rule_id=${rule.body.id}`)).body;
        return all.alerts.length > 0 && all.alerts.every((a) => a.state === 'resolved');
      });
      expect((await check(id)).restart_attempts).toBe(0);
      await sleep(0);
    },
  );
});
