import { randomBytes } from 'node:crypto';
import { containerKey, containerKeyOf } from '@berth/contracts';
import type { BatchJob, Container, Host, LiveMessage } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, readRig, rigEngine, type RigEngine } from '../../test/rig.js';
import { addRigHosts } from '../../test/rig-hosts.js';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  login,
  signedInCookie,
  type TestApp,
} from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let live: Awaited<ReturnType<typeof openLiveClient>>;
let hosts: Record<RigEngine['name'], Host>;
const made: [RigEngine, string][] = [];
const IDLE = "trap 'exit 0' TERM; while :; do sleep 1; done";

/** Starts `count` idle containers on an engine and answers their composite keys. */
async function start(engineName: 'plain' | 'tls', count: number): Promise<string[]> {
  const engine = rigEngine(engineName);
  const ids = Array.from({ length: count }, () => {
    const name = `berth-b-${randomBytes(4).toString('hex')}`;
    made.push([engine, name]);
    return dockerCli(engine, [
      'run',
      '-d',
      '--name',
      name,
      readRig().images.busybox,
      'sh',
      '-c',
      IDLE,
    ]).slice(0, 12);
  });
  const host = hosts[engineName];
  await waitFor('containers listed', async () => {
    const listed = (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body;
    return ids.every((id) => listed.some((c) => c.id === id && c.state === 'running'));
  });
  return ids.map((id) => containerKey(host.id, id));
}

const finished = (jobId: string) =>
  waitFor(
    'job finished',
    async () => {
      const job = (await api.get<BatchJob>(`/batch/${jobId}`)).body;
      return job.status === 'completed' || job.status === 'failed' ? job : undefined;
    },
    60_000,
    200,
  );
const messages = () => live.messages.map((m) => m.message);

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  hosts = await addRigHosts(api);
  live = await openLiveClient(t.app, cookie);
});
afterAll(async () => {
  live.close();
  for (const [engine, name] of made) dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

describe('batch jobs', { timeout: 90_000 }, () => {
  it('restarts containers on two hosts, counting every item, live and stored', async () => {
    const keys = [...(await start('plain', 3)), ...(await start('tls', 3))];
    const before = new Map(
      (await api.get<Container[]>('/containers')).body.map((c) => [
        containerKeyOf(c),
        c.started_at,
      ]),
    );
    const created = await api.post<{ job_id: string }>('/batch', {
      scope: 'container',
      action: 'restart',
      ids: keys,
    });
    expect(created.status).toBe(200);
    const job = await finished(created.body.job_id);
    expect(job).toMatchObject({
      status: 'completed',
      total_items: 6,
      completed_items: 6,
      success_items: 6,
      error_items: 0,
    });
    expect(job.items.every((i) => i.status === 'completed' && i.container_name !== null)).toBe(
      true,
    );
    // The list follows the engines' events, and a restart's start event can arrive a moment
    // after the job's last item has finished (CI saw 'exited' once). Polled, then asserted
    // item by item, so a failure still names what is wrong.
    const listed = async () => (await api.get<Container[]>('/containers')).body;
    const restarted = (list: Container[]) =>
      keys.every((key) => {
        const c = list.find((x) => containerKeyOf(x) === key);
        return c?.state === 'running' && c.started_at !== before.get(key);
      });
    const after = await waitFor(
      'the restarted containers listed as running',
      async () => {
        const list = await listed();
        return restarted(list) && list;
      },
      10_000,
    ).catch(listed);
    for (const key of keys) {
      const c = after.find((x) => containerKeyOf(x) === key);
      expect(c?.state).toBe('running');
      expect(c?.started_at).not.toBe(before.get(key));
    }
    // The stored job can be read finished a moment before its last live message arrives.
    const lastJobUpdate = await waitFor('final live job update', () => {
      const update = messages()
        .filter(
          (m): m is Extract<LiveMessage, { type: 'batch_job_update' }> =>
            m.type === 'batch_job_update' && m.data.job_id === job.job_id,
        )
        .at(-1);
      return update?.data.status === 'completed' ? update : undefined;
    });
    expect(lastJobUpdate.data).toMatchObject({ status: 'completed', success_items: 6 });
    const itemUpdates = messages().filter(
      (m) => m.type === 'batch_item_update' && m.data.job_id === job.job_id,
    );
    expect(itemUpdates.length).toBeGreaterThanOrEqual(12); // running, then done, per item

    // Stored: a restarted server still answers the job.
    await t.restart();
    api = apiClient(t.app, await login(t.app, CHANGED_PASSWORD));
    expect((await api.get<BatchJob>(`/batch/${job.job_id}`)).body.success_items).toBe(6);
    hosts = await waitFor('hosts back', async () => {
      const list = (await api.get<Host[]>('/hosts')).body;
      return list.every((h) => h.status === 'online')
        ? (Object.fromEntries(list.map((h) => [h.tags[0], h])) as Record<RigEngine['name'], Host>)
        : undefined;
    });
  });

  it('skips what needs nothing, fails what cannot be done, and goes on with the rest', async () => {
    const keys = await start('plain', 2);
    const missing = containerKey(hosts.plain.id, '0'.repeat(12));
    const created = await api.post<{ job_id: string }>('/batch', {
      scope: 'container',
      action: 'start',
      ids: [...keys, missing, `nohost:${'a'.repeat(12)}`],
    });
    const job = await finished(created.body.job_id);
    expect(job).toMatchObject({
      status: 'completed',
      total_items: 4,
      skipped_items: 2,
      error_items: 2,
    });
    expect(job.items.map((i) => i.message)).toEqual([
      'Already running',
      'Already running',
      'Container not found',
      'Host not found',
    ]);
  });

  it('adds tags in bulk and sets auto-restart, auto-update and desired state', async () => {
    const keys = await start('tls', 2);
    for (const [action, params] of [
      ['add-tags', { tags: ['Batch', 'eu'] }],
      ['set-auto-restart', { enabled: true }],
      ['set-auto-update', { enabled: true, floating_tag_mode: 'minor' }],
      ['set-desired-state', { desired_state: 'should_run' }],
    ] as const) {
      const created = await api.post<{ job_id: string }>('/batch', {
        scope: 'container',
        action,
        ids: keys,
        params,
      });
      expect(created.status).toBe(200);
      expect((await finished(created.body.job_id)).success_items).toBe(2);
    }
    const listed = (await api.get<Container[]>(`/containers?host_id=${hosts.tls.id}`)).body;
    for (const key of keys) {
      const c = listed.find((x) => containerKeyOf(x) === key);
      expect(c).toMatchObject({
        tags: ['batch', 'eu'],
        auto_restart: true,
        auto_update_enabled: true,
        floating_tag_mode: 'minor',
        desired_state: 'should_run',
      });
    }
    const configs = (await api.get<Record<string, unknown>>('/auto-update-configs')).body;
    expect(configs[keys[0] ?? '']).toEqual({
      auto_update_enabled: true,
      floating_tag_mode: 'minor',
    });
  });

  it.each([
    [
      { scope: 'container', action: 'add-tags', ids: ['h:abcdefabcdef'], params: { tags: [] } },
      'Please enter at least one tag',
    ],
    [
      { scope: 'container', action: 'explode', ids: ['h:abcdefabcdef'] },
      'Action must be one of start, stop, ',
    ],
    [{ scope: 'container', action: 'start', ids: [] }, 'Selection: Select at least one container'],
    [
      { scope: 'container', action: 'start', ids: ['not-a-key'] },
      'Selection: Expected host_id:container_id',
    ],
    [{ scope: 'host', action: 'start', ids: ['h:abcdefabcdef'] }, 'Scope must be container'],
    [
      { scope: 'container', action: 'set-auto-restart', ids: ['h:abcdefabcdef'], params: {} },
      'Enabled is required',
    ],
    [
      {
        scope: 'container',
        action: 'set-auto-update',
        ids: ['h:abcdefabcdef'],
        params: { enabled: true, floating_tag_mode: 'nightly' },
      },
      'Floating tag mode: Expected exact, patch, minor or latest',
    ],
  ])('refuses %j naming the field', async (body, detail) => {
    const res = await api.post<{ detail: string }>('/batch', body);
    expect(res.status).toBe(400);
    expect(res.body.detail.startsWith(detail)).toBe(true);
  });

  it('answers 404 for an unknown job', async () => {
    const res = await api.get<{ detail: string }>('/batch/nope');
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Batch job not found');
  });
});
