import type { Host } from '@berth/contracts';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

let t: TestApp | undefined;
afterEach(() => t?.close());

describe('the local Docker socket', () => {
  it('is registered once on the first start, named after the machine, and not again after a delete', async () => {
    t = await buildTestApp({ BERTH_LOCAL_SOCKET: 'unix:///var/run/docker.sock' });
    const cookie = await signedInCookie(t.app);
    const api = apiClient(t.app, cookie);
    const hosts = (await api.get<Host[]>('/hosts')).body;
    expect(hosts).toHaveLength(1);
    expect(hosts[0]).toMatchObject({
      url: 'unix:///var/run/docker.sock',
      name: expect.stringContaining(hostname().slice(0, 5)),
    });
    await api.delete(`/hosts/${hosts[0]?.id ?? ''}`);
    const app = await t.restart();
    const again = apiClient(app, cookie);
    expect((await again.get<Host[]>('/hosts')).body).toEqual([]);
  });

  it('is skipped when nothing answers there', async () => {
    t = await buildTestApp({ BERTH_LOCAL_SOCKET: 'unix:///nonexistent/docker.sock' });
    const api = apiClient(t.app, await signedInCookie(t.app));
    expect((await api.get<Host[]>('/hosts')).body).toEqual([]);
  });
});
