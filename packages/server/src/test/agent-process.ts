import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const agentDir = fileURLToPath(new URL('../../../agent/', import.meta.url));
const AGENT_MAIN = `${agentDir}dist/main.js`;

/**
 * Builds the agent's dist from its sources, so a test runs the code it is checking; and the
 * contracts' dist it imports at run time when a contracts source is newer than its output
 * (under the lock every build of a shared dist holds, which an e2e run may hold for minutes).
 */
export function buildAgent(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const build = (dir: string) =>
    execFileSync(process.execPath, [tsc, '-p', `${dir}tsconfig.build.json`], { stdio: 'inherit' });
  if (contractsStale()) {
    execFileSync(
      'flock',
      ['/tmp/berth-dist.lock', process.execPath, tsc, '-p', `${contractsDir}tsconfig.build.json`],
      {
        stdio: 'inherit',
      },
    );
  }
  build(agentDir);
}

const contractsDir = `${agentDir}../contracts/`;

function contractsStale(): boolean {
  const mtime = (path: string) => (existsSync(path) ? statSync(path).mtimeMs : 0);
  return readdirSync(`${contractsDir}src`)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .some(
      (f) =>
        mtime(`${contractsDir}src/${f}`) >
        mtime(`${contractsDir}dist/${f.replace(/\.ts$/, '.js')}`),
    );
}

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
