import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineEndpoint } from '../docker/index.js';

interface TlsPaths {
  ca: string;
  cert: string;
  key: string;
}

export interface RigEngine {
  name: 'local' | 'plain' | 'tls';
  url: string;
  /** The engine's own unix socket, for the docker CLI in tests. */
  socket: string;
  pidFile?: string;
  tls?: TlsPaths;
  wrongTls?: TlsPaths;
}

export interface Rig {
  engines: RigEngine[];
  images: { busybox: string; httpd: string };
  /** host:port of the rig's plain-http registry. */
  registry: string;
  script: string;
}

const rigDir = () => process.env.BERTH_RIG_DIR ?? '/tmp/berth-rig';

/** The rig written by `bash scripts/engines.sh up`; a missing rig fails loudly, never skips. */
export function readRig(): Rig {
  const path = join(rigDir(), 'engines.json');
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Rig;
  } catch {
    throw new Error(`No engine rig at ${path}: run \`bash scripts/engines.sh up\` first`);
  }
}

export function rigEngine(name: RigEngine['name']): RigEngine {
  const engine = readRig().engines.find((e) => e.name === name);
  if (engine === undefined) throw new Error(`engine ${name} missing from the rig`);
  return engine;
}

/** The path of a rig engine's unix socket, as an agent's BERTH_AGENT_DOCKER_SOCKET takes it. */
export const rigSocketPath = (name: RigEngine['name']) =>
  rigEngine(name).socket.replace(/^unix:\/\//, '');

const pem = (paths: TlsPaths) => ({
  ca: readFileSync(paths.ca, 'utf8'),
  cert: readFileSync(paths.cert, 'utf8'),
  key: readFileSync(paths.key, 'utf8'),
});

/** The endpoint of a rig engine with its PEM texts read (or the wrong client certificate). */
export function endpointOf(engine: RigEngine, { wrongCert = false } = {}): EngineEndpoint {
  const paths = wrongCert ? engine.wrongTls : engine.tls;
  return { url: engine.url, tls: paths === undefined ? null : pem(paths) };
}

/** The docker CLI against one rig engine (through its unix socket). */
export function dockerCli(engine: RigEngine, args: string[]): string {
  return execFileSync('docker', ['-H', engine.socket, ...args], { encoding: 'utf8' }).trim();
}

/** Whether the engine has an image by that reference (stderr of a miss kept quiet). */
export function imageExistsOn(engine: RigEngine, ref: string): boolean {
  try {
    execFileSync('docker', ['-H', engine.socket, 'image', 'inspect', ref], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** stop, crash or start an extra engine through the rig script. */
export function rigControl(action: 'stop' | 'crash' | 'start', name: 'plain' | 'tls'): void {
  execFileSync('bash', [readRig().script, action, name], { stdio: 'ignore' });
}

/** A container command that idles until stopped and ends at once on a stop's SIGTERM. */
export const IDLE = "trap 'exit 0' TERM; while :; do sleep 1; done";

/**
 * Starts the rig's busybox as `name` on a rig engine, running `sh -c command` (idle unless
 * told), with any other `docker run` options (labels, --init, ...); answers its 12-character id.
 */
export function runBusybox(
  engine: RigEngine,
  name: string,
  { command = IDLE, options = [] }: { command?: string; options?: string[] } = {},
): string {
  const image = readRig().images.busybox;
  return dockerCli(engine, [
    'run',
    '-d',
    '--name',
    name,
    ...options,
    image,
    'sh',
    '-c',
    command,
  ]).slice(0, 12);
}
