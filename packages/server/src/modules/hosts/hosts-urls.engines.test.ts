import { containerKeyOf } from '@berth/contracts';
import type { Container, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { endpointOf, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// The rig's three engines, each registered once: another spelling of its address (http://
// for tcp://, https:// for tcp:// with TLS, /run for /var/run) is refused, so its
// containers are never listed twice.

let t: TestApp;
let api: ReturnType<typeof apiClient>;
const local = rigEngine('local');
const plain = rigEngine('plain');
const tls = rigEngine('tls');
const pem = endpointOf(tls).tls;

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
}, 60_000);
afterAll(() => t.close());

const add = (name: string, url: string, certs = {}) =>
  api.post<Host>('/hosts', { name, url, ...certs });

describe('one host per engine on the rig', { timeout: 60_000 }, () => {
  it('refuses every other spelling of a registered engine’s address', async () => {
    expect(local.url).toBe('unix:///var/run/docker.sock');
    const certs = { tls_ca: pem?.ca, tls_cert: pem?.cert, tls_key: pem?.key };
    expect((await add('local', local.url)).status).toBe(200);
    expect((await add('plain', plain.url)).status).toBe(200);
    expect((await add('secure', tls.url, certs)).status).toBe(200);
    const hosts = (await api.get<Host[]>('/hosts')).body;
    await waitFor('all online', async () =>
      (await api.get<Host[]>('/hosts')).body.every((h) => h.status === 'online') ? true : undefined,
    );

    const respelt: [string, string, object?][] = [
      ['local', 'unix:///run/docker.sock'], // /var/run is a link to /run here
      ['local', 'unix:///var/run//docker.sock'],
      ['plain', plain.url.replace('tcp://', 'http://')],
      ['plain', `${plain.url}/`],
      ['secure', tls.url.replace('tcp://', 'https://')],
      ['secure', `${tls.url}/`, certs],
    ];
    for (const [owner, url, extra] of respelt) {
      const res = await add('again', url, extra);
      expect(res.status, url).toBe(400);
      expect((res.body as unknown as { detail: string }).detail, url).toContain(
        `already exists as '${owner}'`,
      );
    }
    expect((await api.get<Host[]>('/hosts')).body.map((h) => h.id)).toEqual(hosts.map((h) => h.id));

    // Each engine's containers are listed under its one host only.
    const containers = (await api.get<Container[]>('/containers')).body;
    const keys = containers.map((c) => containerKeyOf(c));
    expect(new Set(keys).size).toBe(keys.length);
    const ids = containers.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
