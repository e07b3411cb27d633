import { readFile } from 'node:fs/promises';
import type {
  AgentContainerStatsAnswer,
  AgentContainerStatsRequest,
} from '@berth/contracts/agents';
import { CgroupReader, ownCgroupMounts } from './cgroup-files.js';
import { parseMeminfo } from './host-metrics.js';

/** Containers read between two turns of the event loop (as Berth's own pass does). */
const READS_BETWEEN_YIELDS = 25;
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads the named containers' cgroup and /proc files on this host (decision 005's cheap path,
 * here instead of in Berth). A container whose files are not visible is left out of the
 * answer; Berth reads that one through the Engine API.
 */
export function containerStatsReader(
  procDir: string,
): (req: AgentContainerStatsRequest) => Promise<AgentContainerStatsAnswer> {
  const reader = new CgroupReader(ownCgroupMounts, procDir);
  let known = new Set<string>();
  return async ({ containers }) => {
    // An unlimited container is measured against the machine's memory.
    const memory = parseMeminfo(await readFile(`${procDir}/meminfo`, 'utf8')).mem_total_bytes;
    const wanted = new Set(containers.map((c) => c.id));
    for (const id of known) if (!wanted.has(id)) reader.forget(id);
    known = wanted;
    const samples: AgentContainerStatsAnswer['samples'] = [];
    for (const [i, target] of containers.entries()) {
      if (i > 0 && i % READS_BETWEEN_YIELDS === 0) await yieldNow();
      const s = reader.read(target, memory);
      if (s === null) continue;
      samples.push({
        id: target.id,
        at_ns: String(s.atNs),
        cpu_ns: String(s.cpuNs),
        memory_bytes: s.memoryBytes,
        memory_limit: s.memoryLimit,
        rx_bytes: s.rxBytes,
        tx_bytes: s.txBytes,
        ...(s.blockReadBytes === undefined ? {} : { block_read_bytes: s.blockReadBytes }),
        ...(s.blockWriteBytes === undefined ? {} : { block_write_bytes: s.blockWriteBytes }),
      });
    }
    return { samples };
  };
}
