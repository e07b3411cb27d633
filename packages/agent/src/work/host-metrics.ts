import { readFile, statfs } from 'node:fs/promises';
import type { AgentHostMetrics } from '@berth/contracts/agents';
import { engineGet } from './engine-get.js';

/** How long the engine may take to say where its data root is. */
const INFO_TIMEOUT_MS = 5000;
const INFO_CAP_BYTES = 1024 * 1024;

interface CpuTimes {
  busy: number;
  total: number;
}

export interface HostMetricsOptions {
  /** The host's /proc (BERTH_AGENT_HOST_PROC: /host/proc in the image). */
  procDir: string;
  /** The engine's socket, asked once for its data root (Info's DockerRootDir). */
  socketPath: string;
  /** Measured instead of the engine's data root when set (BERTH_AGENT_DISK_PATH). */
  diskPath: string | null;
}

/**
 * Reads the host's CPU, memory and the engine's data filesystem. CPU is a share of the time
 * since the previous read (Berth's polls set the window), so the first read has none.
 */
export function hostMetricsReader(options: HostMetricsOptions): () => Promise<AgentHostMetrics> {
  let previous: CpuTimes | null = null;
  let dataRoot: string | null = options.diskPath;
  return async () => {
    const [stat, meminfo] = await Promise.all([
      readFile(`${options.procDir}/stat`, 'utf8'),
      readFile(`${options.procDir}/meminfo`, 'utf8'),
    ]);
    const { times, cpus } = parseProcStat(stat);
    const cpu = previous === null ? null : cpuPercent(previous, times);
    previous = times;
    const mem = parseMeminfo(meminfo);
    let disk: AgentHostMetrics['disk'];
    try {
      dataRoot ??= await engineDataRoot(options.socketPath);
      disk = await measureDisk(dataRoot);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      // In the agent's image the host's data root is not mounted unless the operator says so.
      const hint =
        options.diskPath === null ? '; mount it read-only and set BERTH_AGENT_DISK_PATH' : '';
      disk = {
        unavailable: `The engine's data filesystem cannot be read by the agent: ${why}${hint}`,
      };
    }
    return { cpu_percent: cpu, cpus, ...mem, disk };
  };
}

/** The aggregate `cpu` line: busy is everything but idle and iowait (guest is inside user). */
export function parseProcStat(text: string): { times: CpuTimes; cpus: number } {
  const lines = text.split('\n');
  const fields = (lines.find((l) => l.startsWith('cpu ')) ?? '')
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  if (fields.length < 4 || fields.some((n) => !Number.isFinite(n)))
    throw new Error('/proc/stat has no cpu line');
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return {
    times: { busy: total - idle, total },
    cpus: Math.max(1, lines.filter((l) => /^cpu\d+\s/.test(l)).length),
  };
}

/** Busy share of all CPUs between two reads, 0-100 (100: every core busy). */
export function cpuPercent(before: CpuTimes, after: CpuTimes): number {
  const total = after.total - before.total;
  if (total <= 0) return 0;
  return Math.round(((after.busy - before.busy) / total) * 1000) / 10;
}

/** Used memory as `free` counts it: total minus what is available without swapping. */
export function parseMeminfo(text: string): { mem_total_bytes: number; mem_used_bytes: number } {
  const kb = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text);
    if (m === null) throw new Error(`/proc/meminfo has no ${name}`);
    return Number(m[1]) * 1024;
  };
  const total = kb('MemTotal');
  return { mem_total_bytes: total, mem_used_bytes: total - kb('MemAvailable') };
}

/** As `df` counts it: used over used plus what users may still write. */
async function measureDisk(path: string): Promise<AgentHostMetrics['disk']> {
  const fs = await statfs(path);
  const used = (fs.blocks - fs.bfree) * fs.bsize;
  const total = used + fs.bavail * fs.bsize;
  if (total <= 0) throw new Error(`${path} reports no size`);
  return { path, used_bytes: used, total_bytes: total };
}

/** The engine's DockerRootDir, from its Info over the local socket (bounded in time and size). */
async function engineDataRoot(socketPath: string): Promise<string> {
  const info = await engineGet(socketPath, '/info', {
    timeoutMs: INFO_TIMEOUT_MS,
    capBytes: INFO_CAP_BYTES,
  });
  const root = (info as { DockerRootDir?: unknown } | null)?.DockerRootDir;
  if (typeof root !== 'string' || root === '') throw new Error('no DockerRootDir');
  return root;
}
