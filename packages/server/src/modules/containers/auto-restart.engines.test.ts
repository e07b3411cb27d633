import { randomBytes } from 'node:crypto';
import type { Container, EventsResponse, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
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

/** Starts a container with auto-restart on; answers its name and 12-character id. */
async function guarded(command: string): Promise<{ name: string; id: string }> {
  const name = `berth-ar-${randomBytes(4).toString('hex')}`;
  const id = dockerCli(engine, [
    'run',
    '-d',
    '--name',
    name,
    readRig().images.busybox,
    'sh',
    '-c',
    command,
  ]).slice(0, 12);
  made.push(name);
  // Listed past `created`: Berth can see the create before the start, and a stop asked of a
  // container it still thinks created is refused as already stopped (409).
  await waitFor('container started', async () => {
    const now = await state(id);
    return now !== undefined && now !== 'created';
  });
  const res = await api.post(`/hosts/${host.id}/containers/${id}/auto-restart`, { enabled: true });
  expect(res.status).toBe(200);
  return { name, id };
}

const state = async (id: string) =>
  (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body.find((c) => c.id === id)
    ?.state;
const running = (name: string) =>
  dockerCli(engine, ['inspect', '-f', '{{.State.Running}}', name]) === 'true';
const msgs = () => live.messages.map((m) => m.message);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  // The shortest delay the settings allow, and two tries per episode.
  expect((await api.put('/settings', { retry_delay: 5, max_retries: 2 })).status).toBe(200);
  host = (await api.post<Host>('/hosts', { name: 'plain', url: engine.url })).body;
  await waitFor(
    'host online',
    async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
  );
  live = await openLiveClient(t.app, cookie);
});
afterAll(async () => {
  live.close();
  for (const name of made) dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

describe('auto-restart', { timeout: 60_000 }, () => {
  it('brings back a container killed with docker kill after retry_delay, and says so', async () => {
    const { name, id } = await guarded("trap 'exit 0' TERM; while :; do sleep 1; done");
    const killedAt = Date.now();
    dockerCli(engine, ['kill', name]);
    await waitFor(
      'restarted by Berth',
      async () => (await state(id)) === 'running' && running(name),
      15_000,
    );
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(4500);
    const events = await api.get<EventsResponse>(
      `/events?event_type=auto_restart&container_name=${name}`,
    );
    expect(events.body.events[0]).toMatchObject({
      title: `Container auto-restarted: ${name}`,
      message: 'Attempt 1 of 2',
      triggered_by: 'system',
    });
    expect(
      msgs().some(
        (m) =>
          m.type === 'auto_restart_success' &&
          m.data.container_name === name &&
          m.data.attempt === 1,
      ),
    ).toBe(true);
  });

  it('leaves a container stopped by a user alone', async () => {
    const { name, id } = await guarded("trap 'exit 0' TERM; while :; do sleep 1; done");
    dockerCli(engine, ['stop', name]);
    await waitFor('stopped', async () => (await state(id)) === 'exited');
    await sleep(8000);
    expect(running(name)).toBe(false);
    const viaBerth = await guarded("trap 'exit 0' TERM; while :; do sleep 1; done");
    const res = await api.post(`/hosts/${host.id}/containers/${viaBerth.id}/stop`);
    expect(res.status).toBe(200);
    await sleep(8000);
    expect(running(viaBerth.name)).toBe(false);
  });

  it('leaves a container alone while an update holds it, and its backup too', async () => {
    const { name, id } = await guarded("trap 'exit 0' TERM; while :; do sleep 1; done");
    const backup = await guarded("trap 'exit 0' TERM; while :; do sleep 1; done");
    const aside = `${name}-berth-old-1700000000000`;
    dockerCli(engine, ['rename', backup.name, aside]);
    made.splice(made.indexOf(backup.name), 1, aside);
    await waitFor('backup renamed', async () =>
      (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body.some(
        (c) => c.name === aside,
      ),
    );
    // Settings follow the name: the backup's own auto-restart, so only the guard keeps it down.
    const on = await api.post(`/hosts/${host.id}/containers/${backup.id}/auto-restart`, {
      enabled: true,
    });
    expect(on.status).toBe(200);
    // The update itself is not what this tests (updates.engines.test.ts runs real ones): the
    // updates module says it holds `name` and its backup.
    const updates = t.app.services.updates;
    const isUpdating = updates.isUpdating.bind(updates);
    updates.isUpdating = (hostId, containerName) =>
      [name, aside].includes(containerName) || isUpdating(hostId, containerName);
    try {
      dockerCli(engine, ['kill', name]);
      dockerCli(engine, ['kill', aside]);
      await waitFor('killed', async () => (await state(id)) === 'exited');
      await sleep(8000);
      expect(running(name)).toBe(false);
      expect(running(aside)).toBe(false);
    } finally {
      updates.isUpdating = isUpdating;
    }
  });

  it('stops after max_retries when the container keeps dying, and reports the failure', async () => {
    const { name } = await guarded('sleep 1; exit 3');
    await waitFor(
      'auto_restart_failed',
      () => msgs().some((m) => m.type === 'auto_restart_failed' && m.data.container_name === name),
      40_000,
    );
    const failed = msgs().find(
      (m) => m.type === 'auto_restart_failed' && m.data.container_name === name,
    );
    expect(failed?.type === 'auto_restart_failed' && failed.data.error).toMatch(
      /^Gave up after 2 attempt\(s\)/,
    );
    const restarts = msgs().filter(
      (m) => m.type === 'auto_restart_success' && m.data.container_name === name,
    );
    expect(restarts).toHaveLength(2);
    const events = await api.get<EventsResponse>(
      `/events?event_type=auto_restart_failed&container_name=${name}`,
    );
    expect(events.body.events[0]?.severity).toBe('error');
  });
});
