import type { EventsResponse, Host } from '@berth/contracts';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

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

  it('gets exactly one supervisor on a fresh data directory: each engine event stored once', async () => {
    const local = rigEngine('local');
    t = await buildTestApp({ BERTH_LOCAL_SOCKET: local.url });
    const api = apiClient(t.app, await signedInCookie(t.app));
    const [host] = (await api.get<Host[]>('/hosts')).body;
    if (host === undefined) throw new Error('the local socket was not registered');
    await waitFor('host online', async () => {
      const h = (await api.get<Host>(`/hosts/${host.id}`)).body;
      return h.status === 'online' ? h : undefined;
    });
    const name = `berth-once-${randomBytes(4).toString('hex')}`;
    try {
      dockerCli(local, ['run', '-d', '--init', '--name', name, readRig().images.busybox, 'true']);
      const titlesOf = async () =>
        (await api.get<EventsResponse>(`/events?container_name=${name}&limit=100`)).body.events
          .map((e) => e.title)
          .sort();
      await waitFor('the container exited', async () =>
        (await titlesOf()).some((title) => title.startsWith('Container Exited')),
      );
      // A second supervisor would store the same engine events again within milliseconds.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const titles = await titlesOf();
      expect(titles).toEqual([...new Set(titles)]);
      expect(titles).toEqual(
        expect.arrayContaining([`Container Started: ${name}`, `Container Exited: ${name}`]),
      );
      const connected = await api.get<EventsResponse>(`/events?event_type=connection&limit=100`);
      expect(connected.body.events.filter((e) => e.host_id === host.id)).toHaveLength(1);
    } finally {
      dockerCli(local, ['rm', '-f', name]);
    }
  });
});
