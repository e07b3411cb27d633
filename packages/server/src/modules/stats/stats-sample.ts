import type { RawSample } from '@berth/agent/cgroup-files';

export type { RawSample };

export interface ContainerStats {
  cpu_percent: number;
  memory_usage: number;
  memory_limit: number;
  memory_percent: number;
  network_rx: number;
  network_tx: number;
  /** (rx + tx) bytes per second since the previous sample. */
  net_bytes_per_sec: number;
  /**
   * Cumulative block bytes read and written, when the source has them (internal: the live
   * channel's messages name their fields; metrics history makes rates of them).
   */
  block_read?: number | undefined;
  block_write?: number | undefined;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Figures from two samples, as `docker stats` computes them: with the machine's CPU
 * total (API) CPU% = Δcontainer / Δsystem × CPUs × 100; from files, Δcontainer / Δwall × 100.
 * A counter that went backwards (restart) reads as 0 instead of a negative rate.
 */
export function computeStats(prev: RawSample | undefined, next: RawSample): ContainerStats {
  const memory_percent =
    next.memoryLimit > 0 ? round1((next.memoryBytes / next.memoryLimit) * 100) : 0;
  const base = {
    memory_usage: next.memoryBytes,
    memory_limit: next.memoryLimit,
    memory_percent,
    network_rx: next.rxBytes,
    network_tx: next.txBytes,
    block_read: next.blockReadBytes,
    block_write: next.blockWriteBytes,
  };
  if (prev === undefined) return { ...base, cpu_percent: 0, net_bytes_per_sec: 0 };
  const wallNs = Number(next.atNs - prev.atNs);
  const cpuNs = Number(next.cpuNs - prev.cpuNs);
  let cpu = 0;
  if (next.systemCpuNs !== undefined && prev.systemCpuNs !== undefined) {
    const systemNs = Number(next.systemCpuNs - prev.systemCpuNs);
    if (systemNs > 0 && cpuNs > 0) cpu = (cpuNs / systemNs) * (next.onlineCpus ?? 1) * 100;
  } else if (wallNs > 0 && cpuNs > 0) {
    cpu = (cpuNs / wallNs) * 100;
  }
  const bytes = next.rxBytes + next.txBytes - (prev.rxBytes + prev.txBytes);
  const net = wallNs > 0 && bytes > 0 ? bytes / (wallNs / 1e9) : 0;
  return { ...base, cpu_percent: round1(cpu), net_bytes_per_sec: Math.round(net) };
}
