import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RigEngine } from './rig.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

function bcrypt(password: string): string {
  return execFileSync(
    'python3',
    [
      '-c',
      'import crypt,sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH)))',
      password,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  ).trim();
}

/**
 * Debian's docker-registry behind basic auth on a loopback port (shared/recipes/registry-auth.md),
 * with a docker CLI for `engine` whose config directory is its own (so a login never touches
 * the user's), asynchronous so that the tests of the same file keep running beside it. `stop` and `start` take the registry away and bring it back on the same port.
 */
export async function startAuthRegistry(engine: RigEngine) {
  const dir = mkdtempSync(join(tmpdir(), 'berth-reg-auth-'));
  const registry = `127.0.0.1:${25_100 + Math.floor(Math.random() * 800)}`;
  const user = 'berth';
  const password = `pw-${randomBytes(6).toString('hex')}`;
  writeFileSync(join(dir, 'htpasswd'), `${user}:${bcrypt(password)}\n`);
  writeFileSync(
    join(dir, 'config.yml'),
    [
      'version: 0.1',
      `storage: { filesystem: { rootdirectory: ${join(dir, 'data')} } }`,
      `http: { addr: ${registry} }`,
      `auth: { htpasswd: { realm: berth-test, path: ${join(dir, 'htpasswd')} } }`,
    ].join('\n'),
  );
  const cli = async (...args: string[]) =>
    (
      await run('docker', ['-H', engine.socket, ...args], {
        encoding: 'utf8',
        env: { ...process.env, DOCKER_CONFIG: join(dir, 'cli') },
      })
    ).stdout.trim();
  const answers = async () => {
    try {
      return (await fetch(`http://${registry}/v2/`)).status === 401;
    } catch {
      return false;
    }
  };
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: 'ignore' });
    await waitFor('registry up', answers, 20_000, 200);
  };
  const stop = async () => {
    child?.kill('SIGTERM');
    await waitFor('registry down', async () => !(await answers()));
  };
  await start();
  return {
    registry,
    user,
    password,
    cli,
    start,
    stop,
    close: async () => {
      await cli('logout', registry).catch(() => undefined);
      child?.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
