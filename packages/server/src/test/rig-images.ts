import { randomBytes } from 'node:crypto';
import type { Container } from '@berth/contracts';
import type { apiClient } from './api.js';
import { dockerCli, readRig, type RigEngine } from './rig.js';
import { waitFor } from './wait.js';

/** The docker CLI against one engine, as a test runs it (blocking or not). */
type Cli = (...args: string[]) => string | Promise<string>;

/**
 * Pushes the rig's busybox as `repository:tag`, labelled with its tag (so each tag is its own
 * image and digest), with Dockerfile-like `changes` (HEALTHCHECK, ...). No image can be pulled
 * from the internet here: test images are built from busybox.
 */
export async function pushTagged(
  cli: Cli,
  repository: string,
  tag: string,
  changes: string[] = [],
): Promise<void> {
  const tmp = `berth-src-${tag.replace(/[^\w.-]/g, '')}-${Math.random().toString(16).slice(2, 8)}`;
  await cli('create', '--name', tmp, readRig().images.busybox, 'true');
  const c = ['-c', `LABEL berth.version=${tag}`, ...changes.flatMap((x) => ['-c', x])];
  await cli('commit', ...c, tmp, `${repository}:${tag}`);
  await cli('rm', tmp);
  await cli('push', '-q', `${repository}:${tag}`);
}

/**
 * Builds `ref` on `engine` from the rig's busybox with `run` run in it (an image of its own
 * each time it writes something) and Dockerfile-like `changes`; answers the image's id.
 */
export function commitBusybox(
  engine: RigEngine,
  ref: string,
  run = 'true',
  changes: string[] = [],
): string {
  const cli = (...args: string[]) => dockerCli(engine, args);
  const tmp = `berth-src-${randomBytes(3).toString('hex')}`;
  cli('run', '--name', tmp, readRig().images.busybox, 'sh', '-c', run);
  cli('commit', ...changes.flatMap((x) => ['-c', x]), tmp, ref);
  cli('rm', tmp);
  return cli('image', 'inspect', '-f', '{{.Id}}', ref);
}

/** The container `name` once Berth lists it on the host (an engine lists new ones in seconds). */
export function listedContainer(
  api: ReturnType<typeof apiClient>,
  hostId: string,
  name: string,
): Promise<Container> {
  return waitFor(
    `container ${name} listed`,
    async () =>
      (await api.get<Container[]>(`/containers?host_id=${hostId}`)).body.find(
        (x) => x.name === name,
      ),
    60_000,
  );
}
