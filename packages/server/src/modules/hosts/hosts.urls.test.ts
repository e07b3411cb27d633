import type { Host } from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngineClient } from '../../docker/index.js';
import { apiClient } from '../../test/api.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

// Host addresses: a port out of range is refused before it is saved, and one engine is one
// host however its address is spelt. Nothing listens on these addresses.

let t: TestApp;
let api: ReturnType<typeof apiClient>;
beforeEach(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
});
afterEach(() => t.close());

const add = (name: string, url: string, tls: Record<string, string> = {}) =>
  api.post<Host>('/hosts', { name, url, ...tls });
const detail = (res: { body: unknown }) => (res.body as { detail: string }).detail;
const PEM = { tls_ca: 'CA-PEM', tls_cert: 'CERT-PEM', tls_key: 'KEY-PEM' };

describe('host URLs', () => {
  it('refuses a port out of range on add, edit and test, naming the field', async () => {
    const bad = await add('edge', 'tcp://127.0.0.1:99999');
    expect(bad.status).toBe(400);
    expect(detail(bad)).toContain('URL port must be between 1 and 65535');
    expect((await api.get<Host[]>('/hosts')).body).toEqual([]);

    const host = (await add('edge', 'tcp://127.0.0.1:2375')).body;
    const edit = await api.put(`/hosts/${host.id}`, { name: 'edge', url: 'http://127.0.0.1:0' });
    expect(edit.status).toBe(400);
    expect(detail(edit)).toContain('URL port must be between 1 and 65535');
    const test = await api.post('/hosts/test-connection', { name: 'x', url: 'tcp://h:70000' });
    expect(test.status).toBe(400);
    expect(detail(test)).toContain('URL port must be between 1 and 65535');
    const path = await add('other', 'tcp://127.0.0.1:2376/docker');
    expect(detail(path)).toContain('URL must be scheme://host or scheme://host:port');
  });

  it('an address stored before this check fails with the same words, not Node’s', () => {
    expect(() => createEngineClient({ url: 'tcp://127.0.0.1:99999' })).toThrow(
      'Unsupported engine address tcp://127.0.0.1:99999: URL port must be between 1 and 65535',
    );
  });

  it('refuses a second host for the same engine whatever the scheme spelling', async () => {
    expect((await add('edge', 'tcp://127.0.0.1:2375')).status).toBe(200);
    for (const url of [
      'http://127.0.0.1:2375',
      'tcp://127.0.0.1:2375/',
      'tcp://127.0.0.1',
      'http://127.0.0.1:2375/',
    ]) {
      const dup = await add('again', url);
      expect(dup.status, url).toBe(400);
      expect(detail(dup)).toContain(
        `Host with URL 'tcp://127.0.0.1:2375' already exists as 'edge' (the same engine as ${url})`,
      );
    }
    const exact = await add('again', 'tcp://127.0.0.1:2375');
    expect(detail(exact)).toContain(
      "Host with URL 'tcp://127.0.0.1:2375' already exists as 'edge'",
    );
    expect(detail(exact)).not.toContain('same engine');
    // TLS: https:// and tcp:// with certificates are one engine too (2376 by default).
    expect((await add('secure', 'tcp://Engine.example:2376', PEM)).status).toBe(200);
    expect((await add('again', 'https://engine.example:2376')).status).toBe(400);
    expect((await add('again', 'tcp://engine.example', PEM)).status).toBe(400);
    // Other ports and hosts are other engines.
    expect((await add('plain-80', 'http://127.0.0.1')).status).toBe(200);
    expect((await add('b', 'tcp://127.0.0.1:2377')).status).toBe(200);
    expect((await api.get<Host[]>('/hosts')).body.map((h) => h.name)).toEqual([
      'edge',
      'secure',
      'plain-80',
      'b',
    ]);
  });

  it('an edit may respell its own address but not move onto another host’s engine', async () => {
    const a = (await add('a', 'tcp://127.0.0.1:2375')).body;
    const b = (await add('b', 'unix:///tmp/berth-none/docker.sock')).body;
    const respelt = await api.put<Host>(`/hosts/${a.id}`, {
      name: 'a',
      url: 'http://127.0.0.1:2375',
    });
    expect(respelt.status).toBe(200);
    expect(respelt.body.url).toBe('http://127.0.0.1:2375');
    const moved = await api.put(`/hosts/${b.id}`, { name: 'b', url: 'tcp://127.0.0.1:2375' });
    expect(moved.status).toBe(400);
    expect(detail(moved)).toContain("already exists as 'a'");
    const socket = await add('c', 'unix:///tmp//berth-none/./docker.sock');
    expect(detail(socket)).toContain(
      "Host with URL 'unix:///tmp/berth-none/docker.sock' already exists as 'b'",
    );
  });
});
