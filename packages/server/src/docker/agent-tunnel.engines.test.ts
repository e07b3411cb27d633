import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { connectToBerth, type AgentConnection } from '@berth/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTunnelServer, type TunnelServer } from '../test/agent-loopback.js';
import { buildAgent, exitedEarly, spawnAgent } from '../test/agent-process.js';
import { dockerCli, readRig, rigEngine } from '../test/rig.js';
import type { AgentTunnel } from './agent-tunnel.js';
import { createEngineClient, openEngine, type Engine, type EngineEvent } from './index.js';

const plainSocket = () => rigEngine('plain').socket.replace(/^unix:\/\//, '');

describe('the agent transport against the rig', () => {
  let server: TunnelServer;
  let agent: AgentConnection;
  let tunnel: AgentTunnel;
  let engine: Engine;
  const created: string[] = [];

  const createContainer = async (cmd: string[]) => {
    const id = await engine.createContainer({
      Image: readRig().images.busybox,
      Cmd: cmd,
      Labels: { 'berth-test': 'agent-tunnel' },
      HostConfig: { Init: true },
      name: `berth-agent-${randomUUID().slice(0, 8)}`,
    });
    created.push(id);
    return id;
  };

  beforeAll(async () => {
    server = await startTunnelServer();
    [agent, tunnel] = await Promise.all([
      connectToBerth({ url: server.url, headers: {}, socketPath: plainSocket() }),
      server.nextTunnel(),
    ]);
    engine = openEngine({ url: 'agent://test', dial: tunnel.dial }, { timeoutMs: 10_000 });
  });

  afterAll(async () => {
    await Promise.allSettled(created.map((id) => engine.removeContainer(id, { force: true })));
    agent.socket.close();
    await server.close();
  });

  it('pings, lists and inspects the engine behind the agent', async () => {
    await engine.ping();
    const version = await engine.version();
    expect(version.ApiVersion).toMatch(/^1\.\d+$/);
    const id = await createContainer(['sleep', '30']);
    const listed = await engine.listContainers();
    expect(listed.map((c) => c.Id)).toContain(id);
    expect((await engine.inspectContainer(id)).Id).toBe(id);
  });

  it('keeps the engine status code of a failed call', async () => {
    await expect(engine.inspectContainer('berth-no-such-container')).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('starts and stops a container, and replays its events since a time', async () => {
    const since = Math.floor(Date.now() / 1000) - 1;
    const id = await createContainer(['sleep', '30']);
    await engine.startContainer(id);
    expect((await engine.inspectContainer(id)).State.Running).toBe(true);
    await engine.stopContainer(id, { timeoutSeconds: 1 });
    expect((await engine.inspectContainer(id)).State.Running).toBe(false);

    const actions = await new Promise<string[]>((resolve, reject) => {
      const seen: string[] = [];
      const stream = engine.events(
        { since, filters: { container: [id] } },
        {
          onEvent: (event: EngineEvent) => {
            seen.push(event.Action);
            if (event.Action === 'die') {
              resolve(seen);
              stream.then((s) => s.close(), reject);
            }
          },
          onError: reject,
          onEnd: () => resolve(seen),
        },
      );
      stream.catch(reject);
    });
    expect(actions).toEqual(expect.arrayContaining(['create', 'start', 'die']));
  });

  it('says so when the agent cannot reach its own engine', async () => {
    const lost = await Promise.all([
      connectToBerth({ url: server.url, headers: {}, socketPath: '/nonexistent/docker.sock' }),
      server.nextTunnel(),
    ]);
    try {
      const unreachable = openEngine(
        { url: 'agent://lost', dial: lost[1].dial },
        { timeoutMs: 5000 },
      );
      await expect(unreachable.ping()).rejects.toThrow(
        'The agent could not reach its engine (502)',
      );
    } finally {
      lost[0].socket.close();
    }
  });

  it('stops a container while a followed log stream nobody reads fills its window', async () => {
    const chatty = await createContainer(['sh', '-c', 'while true; do echo "$(seq 1 200)"; done']);
    const quiet = await createContainer(['sleep', '30']);
    await engine.startContainer(chatty);
    await engine.startContainer(quiet);
    const docker = createEngineClient({ url: 'agent://test', dial: tunnel.dial });
    const logs = (await docker
      .getContainer(chatty)
      .logs({ follow: true, stdout: true })) as unknown as Readable;
    await new Promise((resolve) => logs.once('data', resolve));
    logs.pause();
    // Long enough for the agent to fill the stream's window and the log's buffers to back up.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const started = performance.now();
    await engine.stopContainer(quiet, { timeoutSeconds: 1 });
    const stopMs = performance.now() - started;
    expect((await engine.inspectContainer(quiet)).State.Running).toBe(false);
    // A stop through Init takes well under a second; the log stream must not add to it.
    expect(stopMs).toBeLessThan(3000);

    // The log stream is still alive and flowing once read again.
    const more = await new Promise<Buffer>((resolve) => {
      logs.once('data', resolve);
      logs.resume();
    });
    expect(more.length).toBeGreaterThan(0);
    logs.destroy();
  });
});

describe('the agent as a process of its own', () => {
  // Two compilations on a machine others share (and a wait for the dist lock).
  beforeAll(buildAgent, 180_000);

  it('carries the engine until it is stopped, then the tunnel closes', async () => {
    const server = await startTunnelServer();
    // An enrolled agent: its secret in its data dir (this loopback end checks none).
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-agent-'));
    writeFileSync(join(dataDir, 'secret'), 'loopback-secret');
    const agent = spawnAgent({
      BERTH_URL: server.url.replace('ws://', 'http://').replace('/api/agents/connect', ''),
      BERTH_AGENT_DOCKER_SOCKET: plainSocket(),
      BERTH_AGENT_DATA_DIR: dataDir,
    });
    try {
      const tunnel = await Promise.race([server.nextTunnel(), exitedEarly(agent)]);
      const engine = openEngine(
        { url: 'agent://process', dial: tunnel.dial },
        { timeoutMs: 10_000 },
      );
      await engine.ping();
      // A container made on the rig's plain engine by its own CLI is listed through the agent.
      const name = `berth-agent-${randomUUID().slice(0, 8)}`;
      dockerCli(rigEngine('plain'), ['create', '--name', name, readRig().images.busybox, 'true']);
      try {
        const names = (await engine.listContainers()).flatMap((c) => c.Names);
        expect(names).toContain(`/${name}`);
      } finally {
        dockerCli(rigEngine('plain'), ['rm', '-f', name]);
      }
      agent.child.kill('SIGTERM');
      await tunnel.closed;
      expect(await agent.exited).toBe(0);
      await expect(engine.ping()).rejects.toThrow('The agent is not connected');
    } finally {
      agent.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      await server.close();
    }
  });
});
