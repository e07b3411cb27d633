import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Container, EnrollmentTokenResponse, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './test/api.js';
import {
  agentImageOf,
  docker,
  DOCKER_SOCKET,
  imageUnderTest,
  REPO_ROOT,
  socketGid,
  type ImageUnderTest,
} from './test/image.js';
import { readRig } from './test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from './test/test-app.js';
import { waitFor } from './test/wait.js';

/**
 * The agent's image (the Dockerfile's `agent` target) on the rig's main engine, the way the
 * README's docker run line starts it: socket mounted with its group added, the host's /proc
 * read-only, a named volume for its secret. Berth is this test's own, on loopback (the agent
 * shares the host's network), so http:// with BERTH_AGENT_INSECURE=1.
 */
const tag = randomBytes(3).toString('hex');
const name = `berth-agent-image-${tag}`;
const volume = `berth-agent-image-${tag}`;
const marker = `berth-agent-image-marker-${tag}`;
const version = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'packages/agent/package.json'), 'utf8')) as {
    version: string;
  }
).version;

let built: ImageUnderTest;
let image: string;
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let base: string;
let token: string;

beforeAll(async () => {
  built = await imageUnderTest(tag);
  image = agentImageOf(built.image);
  t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
  api = apiClient(t.app, await signedInCookie(t.app));
  token = (await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens')).body.token;
  await docker(
    'run',
    '-d',
    '--name',
    marker,
    '--label',
    'berth-test=1',
    // sleep as PID 1 ignores SIGTERM: the engine's stop kills it after this, not 10 s.
    '--stop-timeout',
    '1',
    readRig().images.busybox,
    'sleep',
    '3600',
  );
}, 30 * 60_000);

afterAll(async () => {
  const quietly = (p: Promise<unknown>) => p.catch(() => undefined);
  await quietly(docker('rm', '-f', name, marker));
  await quietly(docker('volume', 'rm', '-f', volume));
  await quietly(t.close());
  await quietly(built.dispose());
}, 120_000);

describe("the agent's image on the real engine", { timeout: 180_000 }, () => {
  it('is labelled with the agent package version, holds only the agent, serves no port', async () => {
    const config = JSON.parse(
      await docker('image', 'inspect', '-f', '{{json .Config}}', image),
    ) as {
      Labels: Record<string, string>;
      User: string;
      ExposedPorts: unknown;
      Healthcheck: unknown;
      Env: string[];
      Volumes: Record<string, unknown>;
    };
    expect(config.Labels).toMatchObject({
      'org.opencontainers.image.title': 'Berth agent',
      'org.opencontainers.image.version': version,
      'org.opencontainers.image.licenses': 'MIT',
    });
    expect(config.User).toBe('berth-agent');
    expect(config.ExposedPorts ?? null).toBeNull();
    expect(config.Healthcheck ?? null).toBeNull();
    expect(config.Env).toEqual(
      expect.arrayContaining([
        'BERTH_AGENT_DATA_DIR=/var/lib/berth-agent',
        'BERTH_AGENT_HOST_PROC=/host/proc',
      ]),
    );
    expect(Object.keys(config.Volumes)).toEqual(['/var/lib/berth-agent']);
    // Nothing of the server or the web app: the agent, the contracts, ws and zod.
    const listing = await docker(
      'run',
      '--rm',
      '--entrypoint',
      'sh',
      image,
      '-c',
      'ls /agent/packages; ls /agent/node_modules /agent/node_modules/@berth',
    );
    expect(listing).not.toMatch(/server|web|fastify|dockerode|sqlite/);
    expect(listing.split(/\s+/)).toEqual(
      expect.arrayContaining(['agent', 'contracts', 'ws', 'zod']),
    );
  });

  it('enrolls, comes online as uid 1000 and lists the engine containers', async () => {
    await docker(
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'host',
      '--group-add',
      String(socketGid()),
      '-v',
      `${DOCKER_SOCKET}:${DOCKER_SOCKET}`,
      '-v',
      '/proc:/host/proc:ro',
      '-v',
      `${volume}:/var/lib/berth-agent`,
      '-e',
      `BERTH_URL=${base}`,
      '-e',
      'BERTH_AGENT_INSECURE=1',
      '-e',
      `BERTH_AGENT_TOKEN=${token}`,
      '-e',
      `BERTH_AGENT_NAME=${name}`,
      image,
    );
    const host = await waitFor(
      'the agent host online',
      async () => {
        const running = await docker('inspect', '-f', '{{.State.Running}}', name);
        if (running !== 'true') throw new Error(`agent exited: ${await docker('logs', name)}`);
        return (await api.get<Host[]>('/hosts')).body.find(
          (h) => h.name === name && h.status === 'online',
        );
      },
      60_000,
      250,
    );
    const listed = await waitFor(
      `${marker} listed`,
      async () =>
        (await api.get<Container[]>('/containers')).body.find(
          (c) => c.host_id === host.id && c.name === marker,
        ),
      60_000,
      250,
    );
    expect(listed.state).toBe('running');
    expect(await docker('exec', name, 'id', '-u')).toBe('1000');
    const logs = await docker('logs', name);
    expect(logs).toContain('Connected to ws://127.0.0.1:');
    expect(logs).not.toContain(token);
  });

  it('docker stop ends it with exit code 0 within 10 s; its host goes offline', async () => {
    const started = performance.now();
    await docker('stop', '--time', '20', name);
    const seconds = (performance.now() - started) / 1000;
    expect(await docker('inspect', '-f', '{{.State.ExitCode}}', name)).toBe('0');
    expect(seconds).toBeLessThan(10);
    await waitFor('the agent host offline', async () =>
      (await api.get<Host[]>('/hosts')).body.find((h) => h.name === name && h.status === 'offline'),
    );
  });
});
