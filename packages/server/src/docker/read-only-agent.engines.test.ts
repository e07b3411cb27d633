import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { Readable } from 'node:stream';
import { connectToBerth, type AgentConnection } from '@berth/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTunnelServer, type TunnelServer } from '../test/agent-loopback.js';
import { dockerCli, readRig, rigEngine } from '../test/rig.js';
import type { AgentTunnel } from './agent-tunnel.js';
import { createEngineClient, openEngine, type Engine, type EngineEvent } from './index.js';

const plain = () => rigEngine('plain');
const READ_ONLY = 'This agent is read-only: actions are refused';

/**
 * A read-only agent (BERTH_AGENT_READ_ONLY) on the rig's plain engine, Berth's end in this
 * process: reads reach the engine and stream as they come, every action answers 403 in the
 * Engine API's error shape, and the engine is left as it was.
 */
describe('a read-only agent against the rig', () => {
  let server: TunnelServer;
  let agent: AgentConnection;
  let tunnel: AgentTunnel;
  let engine: Engine;
  const name = `berth-readonly-${randomUUID().slice(0, 8)}`;
  let id: string;

  beforeAll(async () => {
    // Made beside the agent: it could not create one. It prints a line every 100 ms.
    id = dockerCli(plain(), [
      'run',
      '-d',
      '--init',
      '--name',
      name,
      '--label',
      'berth-test=read-only',
      readRig().images.busybox,
      'sh',
      '-c',
      'while true; do echo tick; sleep 0.1; done',
    ]).trim();
    server = await startTunnelServer();
    [agent, tunnel] = await Promise.all([
      connectToBerth({
        url: server.url,
        headers: {},
        socketPath: plain().socket.replace(/^unix:\/\//, ''),
        readOnly: true,
      }),
      server.nextTunnel(),
    ]);
    engine = openEngine({ url: 'agent://read-only', dial: tunnel.dial }, { timeoutMs: 10_000 });
  });

  afterAll(async () => {
    dockerCli(plain(), ['rm', '-f', name]);
    agent.socket.close();
    await server.close();
  });

  it('pings, lists and inspects, and keeps the engine status of a failed read', async () => {
    await engine.ping();
    expect((await engine.listContainers()).map((c) => c.Id)).toContain(id);
    expect((await engine.inspectContainer(id)).State.Running).toBe(true);
    await expect(engine.inspectContainer('berth-no-such-container')).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('streams a followed log as the container writes it', async () => {
    const docker = createEngineClient({ url: 'agent://read-only', dial: tunnel.dial });
    const logs = (await docker
      .getContainer(id)
      .logs({ follow: true, stdout: true, tail: 0 })) as unknown as Readable;
    try {
      // Lines written after the request: only a stream that flows as it comes sees them.
      let seen = '';
      await new Promise<void>((resolve) =>
        logs.on('data', (chunk: Buffer) => {
          seen += chunk.toString('latin1');
          if (seen.split('tick').length > 3) resolve();
        }),
      );
    } finally {
      logs.destroy();
    }
  });

  it('streams events and a stats sample', async () => {
    const since = Math.floor(Date.now() / 1000) - 1;
    const other = dockerCli(plain(), [
      'create',
      '--label',
      'berth-test=read-only',
      readRig().images.busybox,
      'true',
    ]).trim();
    try {
      const action = await new Promise<string>((resolve, reject) => {
        const stream = engine.events(
          { since, filters: { container: [other] } },
          {
            onEvent: (event: EngineEvent) => {
              resolve(event.Action);
              stream.then((s) => s.close(), reject);
            },
            onError: reject,
            onEnd: () => reject(new Error('events ended')),
          },
        );
        stream.catch(reject);
      });
      expect(action).toBe('create');
    } finally {
      dockerCli(plain(), ['rm', '-f', other]);
    }
    const docker = createEngineClient({ url: 'agent://read-only', dial: tunnel.dial });
    const stats = (await docker.getContainer(id).stats({ stream: false })) as { id?: string };
    expect(stats.id).toBe(id);
  });

  it('answers every action 403 in the Engine API shape and leaves the container running', async () => {
    for (const act of [
      () => engine.stopContainer(id, { timeoutSeconds: 1 }),
      () => engine.removeContainer(id, { force: true }),
      () =>
        engine.createContainer({
          Image: readRig().images.busybox,
          Cmd: ['true'],
          name: `${name}-refused`,
        }),
    ]) {
      await expect(act()).rejects.toMatchObject({
        statusCode: 403,
        json: { message: READ_ONLY },
      });
    }
    // The refused requests left the tunnel's connections usable (keep-alive on both sides).
    expect((await engine.inspectContainer(id)).State.Running).toBe(true);
    expect(dockerCli(plain(), ['inspect', '-f', '{{.State.Running}}', name]).trim()).toBe('true');
  });

  it("refuses reads that copy a container's or an image's files out", async () => {
    const image = encodeURIComponent(readRig().images.busybox);
    for (const path of [
      `/containers/${id}/export`,
      `/v1.41/containers/${id}/archive?path=/etc`,
      `/images/${image}/get`,
      `/images/get?names=${image}`,
    ]) {
      const answer = await rawGet(tunnel, path);
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).toContain('copying files out of containers or images is refused');
    }
    // Other reads of the same kinds still pass.
    expect((await rawGet(tunnel, `/containers/${id}/json`)).status).toBe(200);
  });
});

/** One GET over a fresh tunnel stream, as raw HTTP/1.1: the Engine client has no export call. */
function rawGet(tunnel: AgentTunnel, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { path, createConnection: () => tunnel.dial(), headers: { host: 'docker' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk.slice(0, 10_000)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
