import { gunzipSync } from 'node:zlib';
import type { CreatedApiKey, PrometheusSettings } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

describe('GET /metrics and its setting', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  let cookie: string;

  const scrape = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers });
  const setExport = (body: unknown) =>
    api.put<PrometheusSettings>('/integrations/prometheus', body);

  beforeAll(async () => {
    t = await buildTestApp();
    cookie = await signedInCookie(t.app);
    api = apiClient(t.app, cookie);
    key = (await api.post<CreatedApiKey>('/api-keys', { name: 'prometheus', scope: 'read' })).body
      .key;
  });
  afterAll(() => t.close());

  it('is off by default: 404 even with a good key, and the setting says so', async () => {
    expect((await api.get('/integrations/prometheus')).body).toEqual({
      enabled: false,
      allowed_addresses: [],
    });
    expect((await scrape({ authorization: `Bearer ${key}` })).statusCode).toBe(404);
  });

  it('refuses bad addresses, naming the field', async () => {
    for (const bad of ['10.0.0.300', '10.0.0.0/33', 'example.com', '::1/129', '1.2.3.4/8/1']) {
      const res = await setExport({ enabled: true, allowed_addresses: [bad] });
      expect(res.status, bad).toBe(400);
      expect((res.body as unknown as { detail: string }).detail).toMatch(/^Allowed addresses/);
    }
    expect((await setExport({ allowed_addresses: [] })).status).toBe(400);
  });

  it('on: 401 without a key, 401 for a bad one, 200 for a read key', async () => {
    const on = await setExport({ enabled: true, allowed_addresses: ['10.0.0.0/8', 'fd00::/8'] });
    expect(on.body).toEqual({ enabled: true, allowed_addresses: ['10.0.0.0/8', 'fd00::/8'] });
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape({ authorization: 'Bearer berth_wrong' })).statusCode).toBe(401);
    const res = await scrape({ authorization: `Bearer ${key}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE berth_live_sockets gauge');
    expect(res.body).toContain('# TYPE process_cpu_seconds_total counter');
    const gzipped = await scrape({ authorization: `Bearer ${key}`, 'accept-encoding': 'gzip, br' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toContain('# TYPE berth_live_sockets gauge');
  });

  it('lets an allowed address scrape without a key (inject comes from 127.0.0.1)', async () => {
    await setExport({ enabled: true, allowed_addresses: ['127.0.0.0/8'] });
    expect((await scrape()).statusCode).toBe(200);
    await setExport({ enabled: true, allowed_addresses: ['::1'] });
    expect((await scrape()).statusCode).toBe(401);
  });

  it('labels request durations by route pattern, never by raw URL', async () => {
    await api.get('/hosts/no-such-host');
    const text = (await scrape({ authorization: `Bearer ${key}` })).body;
    expect(text).toContain('route="/api/hosts/:id"');
    expect(text).not.toContain('no-such-host');
    expect(text).toMatch(/berth_http_request_duration_seconds_count\{[^}]*status_class="4xx"/);
  });

  it('keeps its setting out of the global settings answer, and across a restart', async () => {
    const settings = (await api.get<Record<string, unknown>>('/settings')).body;
    expect(Object.keys(settings).some((k) => k.includes('prometheus'))).toBe(false);
    const app = await t.restart();
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    api = apiClient(app, cookie);
  });

  it('is not found again once turned off', async () => {
    await setExport({ enabled: false, allowed_addresses: ['127.0.0.1'] });
    expect((await scrape()).statusCode).toBe(404);
  });
});
