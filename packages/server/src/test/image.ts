import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { waitFor } from './wait.js';

const execFileAsync = promisify(execFile);
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const DOCKER_SOCKET = '/var/run/docker.sock';

/** A command run to its end within `timeoutMs`; its stdout, trimmed; fails with its stderr. */
export async function runTool(cmd: string, args: string[], timeoutMs = 120_000): Promise<string> {
  const { stdout } = await execFileAsync(cmd, args, {
    cwd: REPO_ROOT,
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.trim();
}

/** The docker CLI against the rig's main engine (the system dockerd). */
export const docker = (...args: string[]) => runTool('docker', args);

/** The gid that owns the engine's socket: what compose's group_add is given. */
export const socketGid = () => statSync(DOCKER_SOCKET).gid;

export interface ImageUnderTest {
  image: string;
  /** Removes the image and its build stage when built here (scripts/test.sh removes its own). */
  dispose: () => Promise<void>;
}

/**
 * The image to test: BERTH_TEST_IMAGE when scripts/test.sh built it in the background, else
 * one built here from the Dockerfile on the local base (minutes on a clean engine).
 */
export async function imageUnderTest(tag: string): Promise<ImageUnderTest> {
  const given = process.env.BERTH_TEST_IMAGE;
  if (given !== undefined && given !== '') {
    await docker('image', 'inspect', given);
    return { image: given, dispose: async () => {} };
  }
  const image = `berth-test/berth:${tag}`;
  await runTool('bash', ['scripts/build-image.sh', image], 30 * 60_000);
  const dispose = () => runTool('bash', ['scripts/build-image.sh', '--remove', image]);
  return { image, dispose: () => dispose().then(() => undefined) };
}

/**
 * The agent's image built beside `image` (scripts/build-image.sh tags it REPO-agent:TAG from the
 * Dockerfile's `agent` target, and its --remove removes it with Berth's).
 */
export function agentImageOf(image: string): string {
  const at = image.lastIndexOf(':');
  return `${image.slice(0, at)}-agent${image.slice(at)}`;
}

/** Debian's docker-compose on the repository's compose.yaml, as project `name` in `dir`. */
export function composeProject(name: string, dir: string) {
  return (...args: string[]) =>
    runTool(
      'docker-compose',
      [
        '--project-name',
        name,
        '--project-directory',
        dir,
        '-f',
        `${REPO_ROOT}compose.yaml`,
        ...args,
      ],
      180_000,
    );
}

/** Docker's own verdict once it is `healthy` (fails on `unhealthy` or after 90 s). */
export function healthy(container: string): Promise<true> {
  return waitFor(
    `${container} healthy`,
    async () => {
      const status = await docker('inspect', '-f', '{{.State.Health.Status}}', container);
      if (status === 'unhealthy') {
        throw new Error(
          `${container} unhealthy: ${await docker('logs', '--tail', '20', container)}`,
        );
      }
      return status === 'healthy';
    },
    90_000,
    250,
  );
}

/** The address a container's port 8080 is published on, on this machine. */
export async function publishedBase(container: string): Promise<string> {
  const binding = await docker('port', container, '8080/tcp');
  const port = /:(\d+)$/m.exec(binding)?.[1];
  if (port === undefined) throw new Error(`${container} publishes no 8080: ${binding}`);
  return `http://127.0.0.1:${port}`;
}
