// Berth agents for benchmarks: the built agent (packages/agent/dist) as processes of their
// own, each enrolled with a one-time token from the Berth it dials, as an operator's Add Host →
// Agent dialog makes one.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Host } from '@berth/contracts';
import type { BerthProcess } from './berth-process.ts';

const AGENT_MAIN = resolve(import.meta.dirname, '../packages/agent/dist/main.js');
/** Node's flags as the image's ENTRYPOINT and deploy/berth-agent.service run the agent. */
export const AGENT_NODE_FLAGS = ['--max-semi-space-size=1', '--v8-pool-size=1'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BenchAgents {
  children: ChildProcess[];
  pids: () => number[];
  /** SIGTERM to every agent, then their data directories go. */
  stop: () => Promise<void>;
}

/** Stops with the reason when the agent has not been built. */
export function requireAgentBuild(): void {
  if (!existsSync(AGENT_MAIN))
    throw new Error(`No ${AGENT_MAIN}: build the agent first (npm run build -w @berth/agent)`);
}

/**
 * One agent per socket in `sockets`, named `name(i)`, each forwarding to its socket.
 * Their output goes nowhere unless BENCH_AGENT_LOGS is set.
 */
export async function startAgents(
  berth: BerthProcess,
  sockets: string[],
  name: (i: number) => string,
  /** More of agent i's environment (BERTH_AGENT_HOST_PROC, say). */
  env: (i: number) => Record<string, string> = () => ({}),
): Promise<BenchAgents> {
  requireAgentBuild();
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const killAll = () => children.forEach((c) => c.kill('SIGKILL'));
  process.once('exit', killAll);
  for (const [i, socket] of sockets.entries()) {
    const { body } = await berth.api('/agents/enrollment-tokens', {});
    const token = (body as { token?: unknown } | null)?.token;
    if (typeof token !== 'string') throw new Error(`No enrollment token: ${JSON.stringify(body)}`);
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-agent-'));
    dirs.push(dataDir);
    children.push(
      spawn(process.execPath, [...AGENT_NODE_FLAGS, AGENT_MAIN], {
        env: {
          PATH: process.env.PATH ?? '',
          BERTH_URL: berth.base,
          // The bench's Berth listens on loopback without TLS.
          BERTH_AGENT_INSECURE: '1',
          BERTH_AGENT_TOKEN: token,
          BERTH_AGENT_DATA_DIR: dataDir,
          BERTH_AGENT_DOCKER_SOCKET: socket,
          BERTH_AGENT_NAME: name(i),
          ...env(i),
        },
        stdio: ['ignore', process.env.BENCH_AGENT_LOGS ? 'inherit' : 'ignore', 'inherit'],
      }),
    );
  }
  return {
    children,
    pids: () => children.map((c) => c.pid ?? 0),
    stop: async () => {
      process.off('exit', killAll);
      const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
      await Promise.all(
        running.map(
          (c) =>
            new Promise((r) => {
              c.once('exit', r);
              c.kill('SIGTERM');
            }),
        ),
      );
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The hosts named in `names` once every one is online, or null after `timeoutMs`. */
export async function waitOnline(
  berth: BerthProcess,
  names: string[],
  timeoutMs: number,
): Promise<Host[] | null> {
  const wanted = new Set(names);
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const { res, body } = await berth.api('/hosts');
    if (!res.ok) throw new Error(`GET /api/hosts: ${res.status} ${JSON.stringify(body)}`);
    const online = (body as Host[]).filter((h) => wanted.has(h.name) && h.status === 'online');
    if (online.length === wanted.size) return online;
    await sleep(200);
  }
  return null;
}

/**
 * Resident memory of a process now and at its peak, in MB, and the anonymous part of it now
 * (the process's own heap and stacks; the rest is file pages, mostly node's own binary, which
 * the kernel may share between processes and drop under pressure).
 */
export function rssMb(pid: number): { now: number; peak: number; anon: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
    return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024, anon: kb('RssAnon') / 1024 };
  } catch {
    return { now: NaN, peak: NaN, anon: NaN };
  }
}

/**
 * Proportional set size in MB (each shared page divided among the processes mapping it), whole
 * and its file-backed part: node's binary pages are shared by every node process on a machine.
 */
export function pssMb(pid: number): { pss: number; pssFile: number } {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1]);
    return { pss: kb('Pss') / 1024, pssFile: kb('Pss_File') / 1024 };
  } catch {
    return { pss: NaN, pssFile: NaN };
  }
}
