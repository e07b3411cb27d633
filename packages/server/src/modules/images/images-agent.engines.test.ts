import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { Host, ImagePrunePreview, ImagePullLine, ImagesResponse } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollAgentHost } from '../../test/agent-host.js';
import { buildAgent, type AgentProcess } from '../../test/agent-process.js';
import { apiClient } from '../../test/api.js';
import { listenOnLoopback } from '../../test/listen.js';
import { dockerCli, IDLE, imageExistsOn, readRig, rigEngine } from '../../test/rig.js';
import { commitBusybox } from '../../test/rig-images.js';
import { cancelStalledPull } from '../../test/stalled-pull.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

// Images on an agent host: the agent is a process of its own on the rig's plain engine, and
// every images call (the list, a refused remove, a streamed pull, the prune) runs through its
// tunnel, as on every other host.
const engine = rigEngine('plain');
const suffix = randomBytes(3).toString('hex');
const local = `berth-test/images-agent-${suffix}:used`;
const remote = `${readRig().registry}/berth-test/images-agent-pull-${suffix}:1`;
const runner = `berth-images-agent-${suffix}`;
const cli = (...args: string[]) => dockerCli(engine, args);
const imageExists = (ref: string) => imageExistsOn(engine, ref);
let t: TestApp;
let cookie: string;
let api: ReturnType<typeof apiClient>;
let host: Host;
let agent: AgentProcess | undefined;
let dataDir = '';

beforeAll(async () => {
  buildAgent();
  commitBusybox(engine, local);
  cli('run', '-d', '--name', runner, local, 'sh', '-c', IDLE);
  commitBusybox(engine, remote, 'echo agent > /agent');
  cli('push', '-q', remote);
  cli('rmi', remote);
  t = await buildTestApp();
  const base = await listenOnLoopback(t.app);
  cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  ({ host, agent, dataDir } = await enrollAgentHost(api, base, `images-agent-${suffix}`));
}, 180_000);

afterAll(async () => {
  agent?.child.kill('SIGKILL');
  await t.close();
  for (const args of [
    ['rm', '-f', runner],
    ['rmi', '-f', local, remote],
  ]) {
    try {
      cli(...args);
    } catch {
      // gone already
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('images through an agent', { timeout: 120_000 }, () => {
  it('lists, refuses a remove in the engine’s words, pulls with progress and prunes', async () => {
    const { images, failed_hosts } = (await api.get<ImagesResponse>(`/images?host=${host.id}`))
      .body;
    expect(failed_hosts).toEqual([]);
    const used = images.find((i) => i.tags.includes(local));
    expect(used?.used_by.map((u) => u.name)).toEqual([runner]);

    const refused = await api.delete<{ detail: string }>(`/hosts/${host.id}/images/${used?.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/being used by running container/);

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/hosts/${host.id}/images/pull`,
      headers: { cookie },
      payload: { reference: remote },
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ImagePullLine);
    expect(lines.at(-1)).toMatchObject({ type: 'done', reference: remote });
    expect(cli('image', 'inspect', '-f', '{{.Id}}', remote)).toMatch(/^sha256:/);

    const preview = await api.get<ImagePrunePreview>(`/hosts/${host.id}/images/prune`);
    expect(preview.status).toBe(200);
    const pruned = await api.post<{ count: number }>(`/hosts/${host.id}/images/prune`);
    expect(pruned.status).toBe(200);
    expect(pruned.body.count).toBeGreaterThanOrEqual(0);
  });

  it('cancels a pull under way through the tunnel: the engine stops pulling', async () => {
    // A layer of its own, only in the registry.
    const tag = `berth-test/images-agent-pull-${suffix}:stall`;
    commitBusybox(engine, `${readRig().registry}/${tag}`, 'echo stall > /stall');
    cli('push', '-q', `${readRig().registry}/${tag}`);
    cli('rmi', `${readRig().registry}/${tag}`);
    await cancelStalledPull({ t, api, cookie, hostId: host.id, imageExists, repoTag: tag });
  });
});
