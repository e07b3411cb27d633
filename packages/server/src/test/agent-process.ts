import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const agentDir = fileURLToPath(new URL('../../../agent/', import.meta.url));
const AGENT_MAIN = `${agentDir}dist/main.js`;

/** Builds the agent's dist from its sources, so a test runs the code it is checking. */
export function buildAgent(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', `${agentDir}tsconfig.build.json`], {
    stdio: 'inherit',
  });
}

export interface AgentProcess {
  child: ChildProcess;
  /** Its stdout, one JSON object a line. */
  lines: () => string[];
  exited: Promise<number | null>;
}

/** The built agent as a process of its own, with `env` on top of a bare environment. */
export function spawnAgent(env: Record<string, string>): AgentProcess {
  const child = spawn(process.execPath, [AGENT_MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, lines: () => out.split('\n').filter((l) => l !== ''), exited };
}
