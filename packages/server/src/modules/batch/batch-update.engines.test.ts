import { randomBytes } from 'node:crypto';
import { containerKeyOf } from '@berth/contracts';
import type { BatchJob, Host, UpdateStatus } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { listedContainer, pushTagged } from '../../test/rig-images.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// A batch `update` on the rig's plain engine: each item's stage is stored as it happens, so
// the job read back (a reloaded batch panel) shows the stage the update is at, not a bare
// 'running'; the stored item ends with the outcome.
const engine = rigEngine('plain');
const repo = `${readRig().registry}/berth-test/batch-upd-${randomBytes(3).toString('hex')}`;
const name = `berth-batch-upd-${randomBytes(3).toString('hex')}`;
const cli = (...args: string[]) => dockerCli(engine, args);
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;

beforeAll(async () => {
  for (const tag of ['1.0.0', '1.0.1']) await pushTagged(cli, repo, tag);
  cli('run', '-d', '--name', name, `${repo}:1.0.0`, 'sh', '-c', 'while :; do sleep 1; done');
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'rig-plain', url: engine.url, tags: [] })).body;
  // Long enough a verifying stage to read it back while the update runs.
  t.app.services.updates.settleMs = 4000;
}, 120_000);

afterAll(async () => {
  try {
    cli('rm', '-f', name);
    cli('rmi', '-f', `${repo}:1.0.0`, `${repo}:1.0.1`);
  } catch {
    // gone
  }
  await t.close();
}, 60_000);

describe('batch update', { timeout: 120_000 }, () => {
  it('stores each item stage, so the job read back shows where the update is', async () => {
    const c = await listedContainer(api, host.id, name);
    const base = `/hosts/${c.host_id}/containers/${c.id}`;
    await api.put(`${base}/auto-update-config`, { floating_tag_mode: 'patch' });
    expect((await api.post<UpdateStatus>(`${base}/check-update`)).body.update_available).toBe(true);

    const started = await api.post<{ job_id: string }>('/batch', {
      scope: 'container',
      action: 'update',
      ids: [containerKeyOf(c)],
    });
    expect(started.status).toBe(200);
    const job = started.body;
    const seen = new Set<string>();
    const done = await waitFor(
      'job finished',
      async () => {
        const read = (await api.get<BatchJob>(`/batch/${job.job_id}`)).body;
        const item = read.items[0];
        if (item?.status === 'running' && item.message !== null) seen.add(item.message);
        return read.status === 'completed' || read.status === 'failed' ? read : undefined;
      },
      90_000,
      100,
    );
    // Read back from the store while running: the stage messages, not null.
    expect([...seen]).toContain('Waiting for container to be healthy (85%)');
    expect([...seen].every((m) => / \(\d+%\)$/.test(m))).toBe(true);
    expect(done.items[0]).toMatchObject({ status: 'completed' });
    expect(done.items[0]?.message).toMatch(/^Updated \(new container [0-9a-f]{12}\)$/);
    expect(cli('inspect', '-f', '{{.Config.Image}}', name)).toBe(`${repo}:1.0.1`);
  });
});
