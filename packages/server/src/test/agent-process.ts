import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const agentDir = fileURLToPath(new URL('../../../agent/', import.meta.url));
const AGENT_MAIN = `${agentDir}dist/main.js`;

/**
 * Builds the agent's dist from its sources, so a test runs the code it is checking; and the
 * contracts' dist it imports at run time. Each only when a source is newer than its output,
 * under the lock every build of a shared dist holds (which an e2e run may hold for minutes):
 * test files run two at a time, and one rewriting the agent's dist while another spawns an
 * agent from it would hand that agent half-written files.
 */
export function buildAgent(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  for (const dir of [contractsDir, agentDir]) {
    const script = ['-e', BUILD_IF_STALE, tsc, dir];
    // Checked before the lock, so a fresh dist never waits on a build elsewhere; and again
    // under it, since another file may have built it while this one waited.
    try {
      execFileSync(process.execPath, [...script, 'check'], { stdio: 'ignore' });
      continue;
    } catch {
      execFileSync('flock', [LOCK, process.execPath, ...script, 'build'], { stdio: 'inherit' });
    }
  }
}

const LOCK = '/tmp/berth-dist.lock';
const contractsDir = `${agentDir}../contracts/`;

/**
 * `node -e` this with tsc's path, a package's folder and `check` (exit 1 when a source is
 * newer than its output in dist/) or `build` (build it then).
 */
const BUILD_IF_STALE = `
const [tsc, dir, mode] = process.argv.slice(1);
const { existsSync, readdirSync, statSync } = require('node:fs');
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);
const stale = readdirSync(dir + 'src', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .some((f) => mtime(dir + 'src/' + f) > mtime(dir + 'dist/' + f.replace(/[.]ts$/, '.js')));
if (stale && mode === 'check') process.exit(1);
if (stale) require('node:child_process').execFileSync(process.execPath, [tsc, '-p', dir + 'tsconfig.build.json'], { stdio: 'inherit' });
`;

export interface AgentProcess {
  child: ChildProcess;
  /** Its stdout, one JSON object a line. */
  lines: () => string[];
  exited: Promise<number | null>;
}

/**
 * The built agent as a process of its own, with `env` on top of a bare environment; `wrap` is
 * a command it runs under (`ip netns exec <ns>`: the agent in a network of its own).
 */
export function spawnAgent(env: Record<string, string>, wrap: string[] = []): AgentProcess {
  const [command, ...args] = [...wrap, process.execPath, AGENT_MAIN];
  const child = spawn(command, args, {
    // Test Berths listen on plain loopback http, which an agent refuses unless told (a test of
    // that refusal passes BERTH_AGENT_INSECURE: '').
    env: { PATH: process.env.PATH ?? '', BERTH_AGENT_INSECURE: '1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, lines: () => out.split('\n').filter((l) => l !== ''), exited };
}

/** Rejects with the agent's own log when it exits: a test waiting on it fails at once. */
export const exitedEarly = (agent: AgentProcess): Promise<never> =>
  agent.exited.then((code) => {
    throw new Error(`agent exited (${code}): ${agent.lines().join('\n')}`);
  });
