import type { HostStats, Sparklines } from '@berth/contracts';
import { SparklineSet } from '../stats/index.js';
import type { HostSupervisor } from './host-supervisor.js';

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Host aggregates as DockMon's users know them: CPU is the sum over running containers
 * divided by the engine's CPUs, memory the sum of working sets over the engine's memory.
 */
export function hostStatsOf(sup: HostSupervisor): HostStats {
  let cpu = 0;
  let mem = 0;
  let net = 0;
  for (const c of sup.containers.values()) {
    if (c.state !== 'running') continue;
    const s = sup.stats.statsOf(c.id);
    if (s === undefined) continue;
    cpu += s.cpu_percent;
    mem += s.memory_usage;
    net += s.net_bytes_per_sec;
  }
  return {
    cpu_percent: round1(cpu / Math.max(1, sup.numCpus)),
    mem_percent: round1((mem / Math.max(1, sup.totalMemory)) * 100),
    mem_bytes: mem,
    net_bytes_per_sec: Math.round(net),
  };
}

/** Per-host sparklines, pushed once per stats tick. */
export class HostSparklines {
  private readonly sets = new Map<string, SparklineSet>();

  push(hostId: string, stats: HostStats): void {
    let set = this.sets.get(hostId);
    if (set === undefined) this.sets.set(hostId, (set = new SparklineSet()));
    set.push(stats.cpu_percent, stats.mem_percent, stats.net_bytes_per_sec);
  }

  of(hostId: string): Sparklines | null {
    return this.sets.get(hostId)?.toJSON() ?? null;
  }

  forget(hostId: string): void {
    this.sets.delete(hostId);
  }
}
