import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Container, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addChannelAndRule, backedUpState } from './test/backup-state.js';
import {
  composeProject,
  docker,
  DOCKER_SOCKET,
  healthy,
  imageUnderTest,
  publishedBase,
  REPO_ROOT,
  socketGid,
  type ImageUnderTest,
} from './test/image.js';
import { readRig } from './test/rig.js';
import { freePort, httpApi, signInAgain, signInFirstTime } from './test/server-process.js';
import { TEST_ADMIN } from './test/test-app.js';
import { waitFor } from './test/wait.js';

/**
 * Berth's image on the rig's main engine, the way an operator starts it: the repository's
 * compose.yaml (Debian's docker-compose) with the socket mounted and its gid in group_add, a
 * named volume for /data and the admin password from the env file. Then what the image must
 * keep: a stop within 10 s that exits 0, a new container on the same volume that keeps the
 * sign-in and hosts, and a backup taken in the running container that a fresh volume restores.
 */
const tag = randomBytes(3).toString('hex');
const project = `berthimage${tag}`;
const dir = mkdtempSync(join(tmpdir(), 'berth-image-'));
const compose = composeProject(project, dir);
const volume = `${project}_berth-data`;
const restoredVolume = `${project}_restored`;
const restoredName = `${project}-restored`;
const busyboxName = `berth-image-${tag}`;
const version = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

let image: ImageUnderTest;
let container: string;
let base: string;
let cookie: string;
let localHost: Host;

/** The running compose service's container id. */
const serviceContainer = async () => (await compose('ps', '-q', 'berth')).split('\n')[0] ?? '';

async function upAndHealthy(): Promise<void> {
  await compose('up', '-d', '--no-build');
  container = await serviceContainer();
  await healthy(container);
  base = await publishedBase(container);
}

beforeAll(async () => {
  image = await imageUnderTest(tag);
  const port = await freePort();
  writeFileSync(
    join(dir, '.env'),
    [
      `BERTH_IMAGE=${image.image}`,
      `DOCKER_GID=${socketGid()}`,
      `PUBLISHED_PORT=127.0.0.1:${port}`,
      `BERTH_ADMIN_PASSWORD=${TEST_ADMIN.password}`,
      '',
    ].join('\n'),
  );
  await docker(
    'run',
    '-d',
    '--name',
    busyboxName,
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
  await quietly(compose('down', '--volumes', '--remove-orphans', '--timeout', '20'));
  await quietly(docker('rm', '-f', busyboxName, restoredName));
  await quietly(docker('volume', 'rm', '-f', restoredVolume));
  await quietly(image.dispose());
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('the image under compose on the real engine', { timeout: 180_000 }, () => {
  it('is labelled per the OCI spec with package.json version and runs as uid 1000', async () => {
    const labels = JSON.parse(
      await docker('image', 'inspect', '-f', '{{json .Config.Labels}}', image.image),
    ) as Record<string, string>;
    expect(labels).toMatchObject({
      'org.opencontainers.image.title': 'Berth',
      'org.opencontainers.image.version': version,
      'org.opencontainers.image.licenses': 'MIT',
    });
    await upAndHealthy();
    expect(await docker('exec', container, 'id', '-u')).toBe('1000');
    expect(await docker('inspect', '-f', '{{.Config.User}}', container)).toBe('berth');
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it('signs in with the env file password; the local engine is online with its containers', async () => {
    cookie = await signInFirstTime(base);
    const api = httpApi(base, cookie);
    localHost = await waitFor(
      'the local engine online',
      async () =>
        (await api<Host[]>('GET', '/hosts')).body.find(
          (h) => h.url === `unix://${DOCKER_SOCKET}` && h.status === 'online',
        ),
      60_000,
      250,
    );
    const listed = await waitFor(
      `${busyboxName} listed`,
      async () =>
        (await api<Container[]>('GET', `/containers?host_id=${localHost.id}`)).body.find(
          (c) => c.name === busyboxName,
        ),
      60_000,
      250,
    );
    expect(listed.state).toBe('running');
  });

  it('stops a container through the API: the engine really stops it', async () => {
    const api = httpApi(base, cookie);
    const id = (await docker('inspect', '-f', '{{.Id}}', busyboxName)).slice(0, 12);
    const res = await api('POST', `/hosts/${localHost.id}/containers/${id}/stop`);
    expect(res.status).toBe(200);
    await waitFor(
      `${busyboxName} stopped`,
      async () => (await docker('inspect', '-f', '{{.State.Running}}', busyboxName)) === 'false',
    );
  });

  it('docker stop ends it with exit code 0 within 10 s', async () => {
    const started = performance.now();
    await docker('stop', '--time', '20', container);
    const seconds = (performance.now() - started) / 1000;
    expect(await docker('inspect', '-f', '{{.State.ExitCode}}', container)).toBe('0');
    expect(seconds).toBeLessThan(10);
  });

  it('a new container on the same volume keeps the sign-in and the hosts', async () => {
    const before = container;
    await compose('rm', '--force', '--stop', 'berth');
    await upAndHealthy();
    expect(container).not.toBe(before);
    const api = httpApi(base, await signInAgain(base));
    const hosts = (await api<Host[]>('GET', '/hosts')).body;
    expect(hosts.map((h) => h.id)).toEqual([localHost.id]);
  });

  it('berth backup in the running container restores into a fresh volume: same hosts, rules, channels', async () => {
    const api = httpApi(base, await signInAgain(base));
    await addChannelAndRule(api, busyboxName, 'http://127.0.0.1:9/hook', `Bearer ${tag}`);
    const before = await backedUpState(api);
    await docker('exec', container, 'berth', 'backup', '/data/backup.tar');
    await docker('volume', 'create', restoredVolume);
    await docker(
      'run',
      '--rm',
      '-v',
      `${restoredVolume}:/data`,
      '-v',
      `${volume}:/backup:ro`,
      image.image,
      'restore',
      '/backup/backup.tar',
    );
    await docker(
      'run',
      '-d',
      '--name',
      restoredName,
      '-v',
      `${restoredVolume}:/data`,
      '-v',
      `${DOCKER_SOCKET}:${DOCKER_SOCKET}`,
      '--group-add',
      String(socketGid()),
      '-p',
      '127.0.0.1::8080',
      image.image,
    );
    await healthy(restoredName);
    const restoredBase = await publishedBase(restoredName);
    const restored = await backedUpState(httpApi(restoredBase, await signInAgain(restoredBase)));
    expect(restored).toEqual(before);
  });
});
