import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Container } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api.js';
import { dockerCli, readRig, rigEngine } from '../test/rig.js';
import { addRigHosts } from '../test/rig-hosts.js';
import { buildTestApp, signedInCookie, type TestApp } from '../test/test-app.js';
import { waitFor } from '../test/wait.js';

let t: TestApp;
let cookie: string;
const names: string[] = [];
const engine = rigEngine('plain');

beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
  const api = apiClient(t.app, cookie);
  await addRigHosts(api);
  for (let i = 0; i < 8; i++) {
    const name = `berth-t-${randomBytes(4).toString('hex')}`;
    dockerCli(engine, [
      'create',
      '--label',
      'berth-test=1',
      '--name',
      name,
      readRig().images.busybox,
      'true',
    ]);
    names.push(name);
  }
  await waitFor('created containers listed', async () => {
    const listed = (await api.get<Container[]>('/containers')).body.map((c) => c.name);
    return names.every((n) => listed.includes(n));
  });
});
afterAll(async () => {
  if (names.length > 0) dockerCli(engine, ['rm', '-f', ...names]);
  await t.close();
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: {
      cookie,
      ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
    },
  });

describe('compressed answers', () => {
  it('sends a large container list as brotli when accepted, gzip without brotli, plain when not asked', async () => {
    const plain = await get('/api/containers');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const list = JSON.parse(plain.body) as Container[];

    const br = await get('/api/containers', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const fromBr = JSON.parse(brotliDecompressSync(br.rawPayload).toString()) as Container[];
    expect(fromBr.map((c) => c.id).sort()).toEqual(list.map((c) => c.id).sort());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const gz = await get('/api/containers', 'gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect((JSON.parse(gunzipSync(gz.rawPayload).toString()) as Container[]).length).toBe(
      list.length,
    );

    const identity = await get('/api/containers', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
  });

  it('leaves answers under 1 KB as they are', async () => {
    const me = await get('/api/v2/auth/me', 'br, gzip');
    expect(me.statusCode).toBe(200);
    expect(me.rawPayload.length).toBeLessThan(1024);
    expect(me.headers['content-encoding']).toBeUndefined();
  });
});
