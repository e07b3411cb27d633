import { randomBytes } from 'node:crypto';
import type { BatchJob, Container, Host, UpdatesSummary } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { addRigHosts } from '../../test/rig-hosts.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

const engine = rigEngine('plain');
const repo = `${readRig().registry}/berth-test/app-${randomBytes(3).toString('hex')}`;
const IDLE = "trap 'exit 0' TERM; while :; do sleep 1; done";
const made: string[] = [];
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;

const run = (image: string) => {
  const name = `berth-u-${randomBytes(4).toString('hex')}`;
  made.push(name);
  dockerCli(engine, ['run', '-d', '--name', name, image, 'sh', '-c', IDLE]);
  return name;
};

async function checkUpdates(names: string[]): Promise<BatchJob> {
  const listed = await waitFor('containers listed', async () => {
    const all = (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body;
    const found = names.map((n) => all.find((c) => c.name === n));
    return found.every((c) => c !== undefined) ? found : undefined;
  });
  const { body } = await api.post<{ job_id: string }>('/batch', {
    scope: 'container',
    action: 'check-updates',
    ids: listed.map((c) => `${c.host_id}:${c.id}`),
  });
  return waitFor(
    'check finished',
    async () => {
      const job = (await api.get<BatchJob>(`/batch/${body.job_id}`)).body;
      return job.status === 'completed' || job.status === 'failed' ? job : undefined;
    },
    30_000,
    200,
  );
}

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await addRigHosts(api)).plain;
  dockerCli(engine, ['tag', readRig().images.busybox, `${repo}:1`]);
  dockerCli(engine, ['push', '-q', `${repo}:1`]);
});
afterAll(async () => {
  for (const name of made) dockerCli(engine, ['rm', '-f', name]);
  dockerCli(engine, ['rmi', '-f', `${repo}:1`]);
  dockerCli(engine, ['image', 'prune', '-f']); // the image the tag left behind
  await t.close();
});

describe('update checks against the rig registry', { timeout: 90_000 }, () => {
  it('finds an image up to date, skips a local one, and sees a tag moved in the registry', async () => {
    const pulled = run(`${repo}:1`);
    const local = run(readRig().images.busybox);
    const first = await checkUpdates([pulled, local]);
    const byName = (job: BatchJob, name: string) =>
      job.items.find((i) => i.container_name === name);
    expect(byName(first, pulled)).toMatchObject({ status: 'completed', message: 'Up to date' });
    expect(byName(first, local)).toMatchObject({
      status: 'skipped',
      message: 'Local image: no registry digest to compare',
    });
    expect((await api.get<UpdatesSummary>('/updates/summary')).body.total_updates).toBe(0);

    // A new image is pushed under the same tag; the running container still has the old one.
    dockerCli(engine, ['commit', '-c', 'LABEL version=2', pulled, `${repo}:1`]);
    dockerCli(engine, ['push', '-q', `${repo}:1`]);
    const second = await checkUpdates([pulled]);
    expect(byName(second, pulled)).toMatchObject({
      status: 'completed',
      message: 'Update available',
    });
    const summary = (await api.get<UpdatesSummary>('/updates/summary')).body;
    const id = (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body.find(
      (c) => c.name === pulled,
    )?.id;
    expect(summary.containers_with_updates).toEqual([`${host.id}:${id ?? ''}`]);
    const hosts = (await api.get<Host[]>('/hosts')).body;
    expect(hosts.find((h) => h.id === host.id)?.updates_available).toBe(1);
  });
});
