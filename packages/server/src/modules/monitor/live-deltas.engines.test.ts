import { randomBytes } from 'node:crypto';
import { containerKey, containerKeyOf } from '@berth/contracts';
import type { Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { addRigHosts } from '../../test/rig-hosts.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let cookie: string;
let hosts: Record<'local' | 'plain' | 'tls', Host>;
const engine = rigEngine('plain');
const name = `berth-t-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  cookie = await signedInCookie(t.app);
  hosts = await addRigHosts(apiClient(t.app, cookie));
});
afterAll(async () => {
  try {
    dockerCli(engine, ['rm', '-f', name]);
  } catch {
    // never created
  }
  await t.close();
});

const updates = (live: Awaited<ReturnType<typeof openLiveClient>>) =>
  live.messages.flatMap((m) => (m.message.type === 'containers_update' ? [m.message.data] : []));

describe('containers_update deltas', () => {
  it('start full, then carry only changes in sequence; a stop arrives as a changed field', async () => {
    const live = await openLiveClient(t.app, cookie);
    try {
      const id = dockerCli(engine, [
        'run',
        '-d',
        '--label',
        'berth-test=1',
        '--name',
        name,
        readRig().images.busybox,
        'sleep',
        '300',
      ]).slice(0, 12);
      const key = containerKey(hosts.plain.id, id);
      await waitFor('running container in the live state', () =>
        updates(live).some((u) =>
          u.containers.some((c) => containerKeyOf(c) === key && c.state === 'running'),
        ),
      );
      const since = updates(live).length;
      dockerCli(engine, ['stop', '-t', '0', name]);
      const stopped = await waitFor('stop as a delta', () =>
        updates(live)
          .slice(since)
          .find((u) => u.changed.some((c) => c.key === key && c.fields.state === 'exited')),
      );
      const all = updates(live);
      expect(all[0]?.full).toBe(true);
      expect(all.slice(1).every((u) => !u.full)).toBe(true);
      all.slice(1).forEach((u, i) => expect(u.seq).toBe((all[i]?.seq ?? 0) + 1));
      // The delta names the stopped container only, not every container again.
      expect(stopped.changed.length).toBeLessThan(5);
      expect(stopped.containers.find((c) => containerKeyOf(c) === key)?.state).toBe('exited');
    } finally {
      live.close();
    }
  });

  it('container sparklines only for a browser that shows them, whole when it starts to', async () => {
    // Something running, so that there are container series to send.
    const running = `${name}-spark`;
    const image = readRig().images.busybox;
    dockerCli(engine, [
      'run',
      '-d',
      '--label',
      'berth-test=1',
      '--name',
      running,
      image,
      'sleep',
      '300',
    ]);
    const live = await openLiveClient(t.app, cookie, '?sparklines=0');
    const rich = await openLiveClient(t.app, cookie);
    try {
      const series = (u: ReturnType<typeof updates>[number]) =>
        Object.values(u.container_sparklines).flatMap((d) => [
          ...Object.keys(d.set),
          ...d.tails.map((tail) => tail[0]),
        ]);
      await waitFor('series for a browser that shows them', () =>
        updates(rich).some((u) => !u.full && series(u).length > 0),
      );
      await waitFor('deltas without series', () => updates(live).some((u) => !u.full));
      expect(updates(live).flatMap(series)).toEqual([]);
      // Host sparklines are not container sparklines: everyone gets those.
      expect(updates(live).some((u) => Object.keys(u.host_sparklines.set).length > 0)).toBe(true);

      const before = updates(live).length;
      live.send({ type: 'container_sparklines', shown: true });
      const full = await waitFor('a full state with series', () =>
        updates(live)
          .slice(before)
          .find((u) => u.full),
      );
      expect(series(full).length).toBeGreaterThan(0);
      expect(Object.values(full.container_sparklines).every((d) => d.tails.length === 0)).toBe(
        true,
      );
      const after = updates(live).length;
      await waitFor('tails after it', () =>
        updates(live)
          .slice(after)
          .some((u) => !u.full && series(u).length > 0),
      );

      live.send({ type: 'container_sparklines', shown: false });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const off = updates(live).length;
      await waitFor('two more deltas', () => updates(live).length >= off + 2);
      expect(updates(live).slice(off).flatMap(series)).toEqual([]);
    } finally {
      live.close();
      rich.close();
      dockerCli(engine, ['rm', '-f', running]);
    }
  });

  it('a browser that lost its state asks, and gets the full state, then deltas again', async () => {
    const live = await openLiveClient(t.app, cookie);
    try {
      await waitFor('first delta', () => updates(live).some((u) => !u.full));
      live.forget();
      const before = updates(live).length;
      await waitFor('full state after the gap', () =>
        updates(live)
          .slice(before)
          .some((u) => u.full),
      );
      const after = updates(live).length;
      await waitFor('deltas again', () =>
        updates(live)
          .slice(after)
          .some((u) => !u.full),
      );
      const bytes = live.messages.filter((m) => m.message.type === 'containers_update');
      expect(bytes.length).toBeGreaterThan(2);
    } finally {
      live.close();
    }
  });
});
