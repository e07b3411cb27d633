import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type {
  Container,
  EventsResponse,
  ExecuteUpdateResponse,
  Host,
  LiveMessage,
  UpdateStatus,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { listedContainer, pushTagged } from '../../test/rig-images.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// Faults in the middle of real updates on the rig's plain engine. Berth reaches the engine
// through a loopback TCP proxy written here, so the test can cut the engine away at an exact
// stage (the pull, the recreate) and bring it back; the docker CLI checks the truth through
// the engine's own socket. Also a name taken by someone else while the update recreates.
const engine = rigEngine('plain');
const upstream = new URL(engine.url.replace(/^tcp:/, 'http:'));
const rand = randomBytes(3).toString('hex');
const repo = `${readRig().registry}/berth-test/fault-${rand}`;
const IDLE = "trap 'exit 0' TERM; while :; do sleep 1; done";
const made: string[] = [];
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;
const cli = (...args: string[]) => dockerCli(engine, args);

/** A TCP proxy to the engine that can be cut (every connection dropped, new ones refused). */
class EngineProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  open(): Promise<void> {
    const server = createServer((client) => {
      const up = connect(Number(upstream.port), upstream.hostname);
      const drop = () => {
        client.destroy();
        up.destroy();
        this.sockets.delete(client);
        this.sockets.delete(up);
      };
      for (const s of [client, up]) {
        this.sockets.add(s);
        s.on('error', drop);
        s.on('close', drop);
      }
      client.pipe(up);
      up.pipe(client);
    });
    this.server = server;
    return new Promise((resolve) => {
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  /** Synchronous, so a stage hook can cut before the executor's next call to the engine. */
  cut(): void {
    this.server?.close();
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }
}
const proxy = new EngineProxy();

/** When set, called for every update stage Berth publishes (synchronously). */
let onStage: ((stage: string, containerId: string) => void) | null = null;

async function runOld(): Promise<{ name: string; fullId: string; c: Container }> {
  const name = `berth-fault-${randomBytes(4).toString('hex')}`;
  made.push(name);
  const fullId = cli('run', '-d', '--name', name, `${repo}:1.0.0`, 'sh', '-c', IDLE);
  const c = await listedContainer(api, host.id, name);
  const base = `/hosts/${c.host_id}/containers/${c.id}`;
  await api.put(`${base}/auto-update-config`, { floating_tag_mode: 'patch' });
  const status = (await api.post<UpdateStatus>(`${base}/check-update`)).body;
  expect(status).toMatchObject({ update_available: true, latest_image: `${repo}:1.0.1` });
  return { name, fullId, c };
}

/** Every container whose name starts with `name`: id, name, running. */
function sameName(name: string): { id: string; name: string; running: boolean }[] {
  const out = cli('ps', '-a', '--filter', `name=^/${name}`, '--format', '{{.ID}} {{.Names}}');
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id = '', n = ''] = line.split(' ');
      return { id, name: n, running: cli('inspect', '-f', '{{.State.Running}}', id) === 'true' };
    });
}

async function hostStatus(status: Host['status']) {
  await waitFor(
    `host ${status}`,
    async () =>
      (await api.get<Host[]>('/hosts')).body.find((h) => h.id === host.id)?.status === status
        ? true
        : undefined,
    60_000,
    200,
  );
}

beforeAll(async () => {
  await proxy.open();
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (
    await api.post<Host>('/hosts', {
      name: 'rig-plain-via-proxy',
      url: `tcp://127.0.0.1:${proxy.port}`,
      tags: [],
    })
  ).body;
  await hostStatus('online');
  t.app.services.updates.settleMs = 1000;
  const publish = t.app.services.hub.publish.bind(t.app.services.hub);
  t.app.services.hub.publish = (m: LiveMessage) => {
    if (m.type === 'container_update_progress') onStage?.(m.data.stage, m.data.container_id);
    publish(m);
  };
  await pushTagged(cli, repo, '1.0.0');
  await pushTagged(cli, repo, '1.0.1');
}, 120_000);

afterAll(async () => {
  proxy.cut();
  for (const name of made) {
    for (const c of sameName(name)) {
      try {
        cli('rm', '-f', c.id);
      } catch {
        // already gone
      }
    }
  }
  try {
    cli('rmi', '-f', `${repo}:1.0.0`, `${repo}:1.0.1`);
  } catch {
    // gone
  }
  await t.close();
}, 60_000);

describe('faults during an update on a real engine', { timeout: 150_000 }, () => {
  it('the engine lost during the pull: failed, the container untouched', async () => {
    const { name, fullId, c } = await runOld();
    onStage = (stage, id) => {
      if (id === c.id && stage === 'pulling') proxy.cut();
    };
    const res = await api.post<ExecuteUpdateResponse>(
      `/hosts/${c.host_id}/containers/${c.id}/execute-update`,
    );
    onStage = null;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', message: 'Failed to pull the new image' });
    expect(res.body.detail).toMatch(
      /^The engine stopped answering \(.+\)\. The container was not touched\.$/,
    );
    expect(sameName(name)).toEqual([{ id: fullId.slice(0, 12), name, running: true }]);
    await hostStatus('offline');
    await proxy.open();
    await hostStatus('online');
    expect(sameName(name)).toEqual([{ id: fullId.slice(0, 12), name, running: true }]);
  });

  it('the engine lost during the recreate: failed, the old container kept, and back as it was when the host returns', async () => {
    const { name, fullId, c } = await runOld();
    onStage = (stage, id) => {
      if (id === c.id && stage === 'creating') proxy.cut();
    };
    const res = await api.post<ExecuteUpdateResponse>(
      `/hosts/${c.host_id}/containers/${c.id}/execute-update`,
    );
    onStage = null;
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.message).toMatch(/^Container update failed: the engine stopped answering/);
    expect(res.body.detail).toBe(
      'The engine stopped answering before the previous container was restored. It is kept, never removed, and put back as it was (its name, running) when the host returns.',
    );
    // Cut after the old container was stopped and set aside: it is there, only aside.
    const aside = sameName(name);
    expect(aside).toHaveLength(1);
    expect(aside[0]).toMatchObject({ id: fullId.slice(0, 12), running: false });
    expect(aside[0]?.name).toMatch(new RegExp(`^${name}-berth-old-\\d+$`));

    await hostStatus('offline');
    await proxy.open();
    await hostStatus('online');
    await waitFor(
      'old container back under its name, running',
      () => {
        const now = sameName(name);
        return now.length === 1 && now[0]?.name === name && now[0].running ? true : undefined;
      },
      30_000,
      250,
    );
    expect(sameName(name)).toEqual([{ id: fullId.slice(0, 12), name, running: true }]);
    expect(cli('inspect', '-f', '{{.Config.Image}}', name)).toBe(`${repo}:1.0.0`);
    const events = (
      await api.get<EventsResponse>(
        `/events?event_type=update_interrupted&container_name=${name}&hours=1`,
      )
    ).body.events;
    expect(events.map((e) => e.title)).toContain(
      `Container ${name} restored after an interrupted update`,
    );
    // The new version was never proven bad (the engine went away): it is still offered.
    const status = (
      await api.get<UpdateStatus>(`/hosts/${c.host_id}/containers/${c.id}/update-status`)
    ).body;
    expect(status).toMatchObject({ update_available: true, failed_digest: null });
  });

  it('a name taken by another container during the recreate: rolled back, nothing removed', async () => {
    const { name, fullId, c } = await runOld();
    let intruder = '';
    onStage = (stage, id) => {
      if (id === c.id && stage === 'creating')
        intruder = cli('create', '--name', name, readRig().images.busybox, 'true');
    };
    const res = await api.post<ExecuteUpdateResponse>(
      `/hosts/${c.host_id}/containers/${c.id}/execute-update`,
    );
    onStage = null;
    expect(intruder).not.toBe('');
    expect(res.body.status).toBe('failed');
    expect(res.body.message).toMatch(/^Container update failed: .*already in use/);
    expect(res.body.detail).toContain(`the name ${name} was taken by another container`);
    // The old container: same id, same image, running again (aside, as its name is taken);
    // the intruder untouched; no container of the new version left.
    const all = sameName(name);
    expect(all).toHaveLength(2);
    const old = all.find((x) => x.id === fullId.slice(0, 12));
    expect(old).toMatchObject({ running: true });
    expect(old?.name).toMatch(new RegExp(`^${name}-berth-old-\\d+$`));
    expect(cli('inspect', '-f', '{{.Config.Image}}', fullId)).toBe(`${repo}:1.0.0`);
    expect(all.find((x) => x.name === name)?.id).toBe(intruder.slice(0, 12));
    const events = (
      await api.get<EventsResponse>(
        `/events?event_type=update_failed&container_name=${name}&hours=1`,
      )
    ).body.events;
    expect(events).toHaveLength(1);
  });

  it('Berth itself went down mid-update: the backup gets its name back, running only if the update stopped it', async () => {
    const idle = (name: string) => {
      made.push(name);
      return cli('run', '-d', '--name', name, readRig().images.busybox, 'sh', '-c', IDLE);
    };
    // Stopped by the update: it stopped after the update began (the time in the backup name).
    const ran = `berth-fault-${randomBytes(4).toString('hex')}`;
    const ranId = idle(ran);
    const began = Date.now() - 2000;
    cli('stop', '-t', '1', ran);
    cli('rename', ran, `${ran}-berth-old-${began}`);
    // Stopped by its operator before the update began: it stays stopped.
    const off = `berth-fault-${randomBytes(4).toString('hex')}`;
    const offId = idle(off);
    cli('stop', '-t', '1', off);
    await new Promise((r) => setTimeout(r, 1100));
    cli('rename', off, `${off}-berth-old-${Date.now()}`);

    await t.app.services.updates.recoverInterrupted(host.id);
    expect(sameName(ran)).toEqual([{ id: ranId.slice(0, 12), name: ran, running: true }]);
    expect(sameName(off)).toEqual([{ id: offId.slice(0, 12), name: off, running: false }]);
  });
});
