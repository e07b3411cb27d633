import type { AgentContainerStatsAnswer } from '@berth/contracts';
import type { RawSample } from './stats-sample.js';

/** An agent's file readings as samples, by short id (its clock is its own: decision 023). */
export function samplesFromAgent(answer: AgentContainerStatsAnswer): Map<string, RawSample> {
  return new Map(
    answer.samples.map((s) => [
      s.id,
      {
        atNs: BigInt(s.at_ns),
        cpuNs: BigInt(s.cpu_ns),
        memoryBytes: s.memory_bytes,
        memoryLimit: s.memory_limit,
        rxBytes: s.rx_bytes,
        txBytes: s.tx_bytes,
        blockReadBytes: s.block_read_bytes,
        blockWriteBytes: s.block_write_bytes,
      },
    ]),
  );
}
