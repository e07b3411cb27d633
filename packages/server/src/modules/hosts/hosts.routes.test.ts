import type { Host } from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { endpointOf, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
beforeEach(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
});
afterEach(() => t.close());

// An address nothing listens on: these tests are about validation and storage.
const host = (over: Record<string, unknown> = {}) => ({
  name: 'edge-1',
  url: 'tcp://127.0.0.1:9',
  ...over,
});

describe('host validation', () => {
  it.each([
    [{ name: '' }, 'Host name is required'],
    [{ name: 'x'.repeat(101) }, 'Host name must be less than 100 characters'],
    [{ name: '-bad' }, 'Host name contains invalid characters'],
    [{ name: 'bad/name' }, 'Host name contains invalid characters'],
    [{ url: '' }, 'Address/Endpoint is required'],
    [{ url: 'ftp://x' }, 'URL must start with unix://, tcp://, http:// or https://'],
    [{ description: 'd'.repeat(1001) }, 'Description must be less than 1000 characters'],
    [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'A host can have at most 20 tags'],
    [
      { tls_ca: 'x', tls_cert: null, tls_key: null },
      'All three certificates are required for mTLS connection',
    ],
  ])('refuses %j', async (over, detail) => {
    const res = await api.post('/hosts', host(over));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail });
  });

  it('trims and lowercases tags and refuses a duplicate url', async () => {
    const created = await api.post<Host>('/hosts', host({ tags: [' Prod ', 'prod', 'US-West-1'] }));
    expect(created.status).toBe(200);
    expect(created.body.tags).toEqual(['prod', 'us-west-1']);
    const dup = await api.post('/hosts', host({ name: 'other' }));
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({
      detail: "Host with URL 'tcp://127.0.0.1:9' already exists as 'edge-1'",
    });
  });
});

describe('host secrets', () => {
  it('seals TLS material at rest, never returns it, and keeps it when an edit sends null', async () => {
    const tls = { tls_ca: 'CA-PEM-TEXT', tls_cert: 'CERT-PEM-TEXT', tls_key: 'KEY-PEM-TEXT' };
    const created = await api.post<Host>('/hosts', host({ url: 'tcp://127.0.0.1:10', ...tls }));
    expect(created.body.security_status).toBe('secure');
    expect(JSON.stringify(created.body)).not.toMatch(/PEM-TEXT/);
    const row = await t.app.services.db.selectFrom('hosts').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toMatch(/PEM-TEXT/);
    const edited = await api.put<Host>(
      `/hosts/${created.body.id}`,
      host({ url: 'tcp://127.0.0.1:10', name: 'renamed' }),
    );
    expect(edited.body).toMatchObject({ name: 'renamed', security_status: 'secure' });
    const [target] = await t.app.services.hosts.engineTargets();
    expect(target?.endpoint.tls).toEqual({
      ca: 'CA-PEM-TEXT',
      cert: 'CERT-PEM-TEXT',
      key: 'KEY-PEM-TEXT',
    });
    const list = await api.get<Host[]>('/hosts');
    expect(JSON.stringify(list.body)).not.toMatch(/PEM-TEXT/);
  });

  it('calls plain tcp insecure and unix sockets secure', async () => {
    expect((await api.post<Host>('/hosts', host())).body.security_status).toBe('insecure');
    expect(
      (await api.post<Host>('/hosts', host({ name: 'sock', url: 'unix:///nonexistent.sock' }))).body
        .security_status,
    ).toBe('secure');
  });
});

describe('host lifecycle', () => {
  it('edits tags by patch, suggests tags, deletes and keeps the events', async () => {
    const { body: h } = await api.post<Host>('/hosts', host({ tags: ['prod'] }));
    const patched = await api.patch(`/hosts/${h.id}/tags`, {
      tags_to_add: ['EU', 'db'],
      tags_to_remove: ['prod'],
    });
    expect(patched.body).toEqual({ tags: ['eu', 'db'] });
    expect((await api.get('/hosts/tags/suggest?q=d&limit=50')).body).toEqual({ tags: ['db'] });
    expect((await api.get('/tags/suggest?q=e')).body).toEqual({ tags: [] });
    expect((await api.delete(`/hosts/${h.id}`)).status).toBe(200);
    expect((await api.get<Host[]>('/hosts')).body).toEqual([]);
    const events = await api.get<{ events: { event_type: string }[] }>(`/events/host/${h.id}`);
    expect(events.body.events.map((e) => e.event_type)).toEqual(['host_removed', 'host_added']);
    expect((await api.delete(`/hosts/${h.id}`)).status).toBe(404);
  });

  it('an unreachable engine shows as offline with its reason, not an error', async () => {
    const { body: h } = await api.post<Host>('/hosts', host());
    await new Promise((r) => setTimeout(r, 300));
    const list = await api.get<Host[]>('/hosts');
    expect(list.body.find((x) => x.id === h.id)?.status).toBe('offline');
  });
});

describe('test connection', () => {
  it('answers versions for the mTLS engine and a clear 400 for a wrong client certificate', async () => {
    const engine = rigEngine('tls');
    const right = endpointOf(engine);
    const ok = await api.post('/hosts/test-connection', {
      name: 'tls',
      url: engine.url,
      tls_ca: right.tls?.ca,
      tls_cert: right.tls?.cert,
      tls_key: right.tls?.key,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      success: true,
      docker_version: expect.any(String),
      api_version: expect.stringMatching(/^1\./),
    });
    const wrong = endpointOf(engine, { wrongCert: true });
    const bad = await api.post('/hosts/test-connection', {
      name: 'tls',
      url: engine.url,
      tls_ca: wrong.tls?.ca,
      tls_cert: wrong.tls?.cert,
      tls_key: wrong.tls?.key,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      detail: `TLS handshake rejected by ${engine.url}: the engine did not accept the client certificate`,
    });
    const refused = await api.post('/hosts/test-connection', {
      name: 'x',
      url: 'tcp://127.0.0.1:1',
    });
    expect(refused.body).toMatchObject({ detail: expect.stringMatching(/^Connection refused/) });
  });
});

describe('an address that is not a Docker engine', () => {
  it('leaves the host offline with the reason, and the server answering', async () => {
    const { createServer } = await import('node:http');
    const garbage = createServer((_req, res) => res.end('<html>not docker</html>'));
    await new Promise<void>((done) => garbage.listen(0, '127.0.0.1', done));
    const address = garbage.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const { body: h } = await api.post<Host>(
        '/hosts',
        host({ name: 'garbage', url: `tcp://127.0.0.1:${port}` }),
      );
      const seen = await waitFor('a reason', async () => {
        const got = (await api.get<Host>(`/hosts/${h.id}`)).body;
        return got.error !== null && got.error !== 'Connecting...' ? got : undefined;
      });
      expect(seen.status).toBe('offline');
      expect(seen.error).toBe('Not a Docker engine');
      expect((await api.get('/containers')).status).toBe(200);
    } finally {
      garbage.close();
    }
  });
});
