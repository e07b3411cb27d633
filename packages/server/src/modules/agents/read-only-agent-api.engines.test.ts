import { randomBytes } from 'node:crypto';
import {
  containerKey,
  type BatchJob,
  type Container,
  type ContainerLogsResponse,
  type ExecuteUpdateResponse,
  type UpdateStatus,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { listedContainer, pushTagged } from '../../test/rig-images.js';
import { openTransportHost, type TransportHost } from '../../test/transports.js';
import { waitFor } from '../../test/wait.js';

// A host whose agent runs with BERTH_AGENT_READ_ONLY=1, through Berth's API: what Berth reads
// (the list from inspect, logs, an update check) works, and every path that acts (a container
// action, a batch job, an image update) is refused with the agent's reason, never a 500.
const READ_ONLY = 'This agent is read-only: actions are refused';
const cli = (...args: string[]) => dockerCli(rigEngine('plain'), args);
const tag = randomBytes(3).toString('hex');
const repo = `${readRig().registry}/berth-test/read-only-${tag}`;
const made: string[] = [];

function run(image: string, script: string): string {
  const name = `berth-ro-${tag}-${made.length}`;
  cli('run', '-d', '--name', name, image, 'sh', '-c', `trap 'exit 0' TERM; ${script}`);
  made.push(name);
  return name;
}
const isRunning = (name: string) => cli('inspect', '-f', '{{.State.Running}}', name).trim();

describe('a read-only agent host through the API', { timeout: 60_000 }, () => {
  let h: TransportHost;
  let talker: Container;
  let updatable: Container;
  const base = (c: Container) => `/hosts/${h.host.id}/containers/${c.id}`;

  beforeAll(async () => {
    // 1.0.1 in the registry only: an update the engine would have to pull.
    for (const v of ['1.0.0', '1.0.1']) await pushTagged(cli, repo, v);
    cli('rmi', `${repo}:1.0.1`);
    const names = [
      run(readRig().images.busybox, 'echo first; while :; do sleep 1; done'),
      run(`${repo}:1.0.0`, 'while :; do sleep 1; done'),
    ];
    h = await openTransportHost('agent', {}, { BERTH_AGENT_READ_ONLY: '1' });
    [talker, updatable] = (await Promise.all(
      names.map((name) => listedContainer(h.api, h.host.id, name)),
    )) as [Container, Container];
  }, 180_000);

  afterAll(async () => {
    for (const name of made) {
      try {
        cli('rm', '-f', name);
      } catch {
        // gone
      }
    }
    try {
      // 1.0.1 was never pulled: the update was refused before.
      cli('rmi', '-f', `${repo}:1.0.0`);
    } catch {
      // gone
    }
    await h.close();
  }, 60_000);

  it('announces read-only, and reads work: the list from inspect, logs', async () => {
    expect(h.host.connection.agent?.capabilities).toContain('read-only');
    const [inspected] = JSON.parse(cli('inspect', talker.name)) as [
      { State: { StartedAt: string } },
    ];
    expect(talker.state).toBe('running');
    expect(Date.parse(talker.started_at ?? '')).toBe(Date.parse(inspected.State.StartedAt));
    const logs = await h.api.get<ContainerLogsResponse>(`${base(talker)}/logs?tail=100`);
    expect(logs.status).toBe(200);
    expect(logs.body.logs.map((l) => l.log)).toContain('first');
  });

  it('answers a container action 403 with the reason; the container keeps running', async () => {
    for (const action of ['stop', 'restart', 'pause']) {
      const res = await h.api.post<{ detail: string }>(`${base(talker)}/${action}`);
      expect(res.status, action).toBe(403);
      expect(res.body.detail).toContain(READ_ONLY);
    }
    expect(isRunning(talker.name)).toBe('true');
  });

  it('fails a batch stop item by item with the reason', async () => {
    const created = await h.api.post<{ job_id: string }>('/batch', {
      scope: 'container',
      action: 'stop',
      ids: [talker, updatable].map((c) => containerKey(h.host.id, c.id)),
    });
    expect(created.status).toBe(200);
    const job = await waitFor('the job done', async () => {
      const j = (await h.api.get<BatchJob>(`/batch/${created.body.job_id}`)).body;
      return j.status !== 'queued' && j.status !== 'running' ? j : undefined;
    });
    expect(job).toMatchObject({ success_items: 0, error_items: 2 });
    for (const item of job.items) {
      expect(item.status).toBe('failed');
      expect(item.message).toContain(READ_ONLY);
    }
    expect(isRunning(talker.name)).toBe('true');
    expect(isRunning(updatable.name)).toBe('true');
  });

  it('checks for an update (reads), but an update is refused and the container left as it was', async () => {
    // 1.0.0 → 1.0.1 is a patch: the mode that offers it.
    const mode = await h.api.put(`${base(updatable)}/auto-update-config`, {
      floating_tag_mode: 'patch',
    });
    expect(mode.status).toBe(200);
    const checked = await h.api.post<UpdateStatus>(`${base(updatable)}/check-update`);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ update_available: true, latest_image: `${repo}:1.0.1` });
    // The pull is the first thing refused: a failed update in the engine's words.
    const res = await h.api.post<ExecuteUpdateResponse>(`${base(updatable)}/execute-update`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'failed',
      message: 'Failed to pull the new image',
      detail: `${READ_ONLY}. The container was not touched.`,
    });
    expect(cli('inspect', '-f', '{{.Config.Image}} {{.State.Running}}', updatable.name)).toBe(
      `${repo}:1.0.0 true`,
    );
  });
});
