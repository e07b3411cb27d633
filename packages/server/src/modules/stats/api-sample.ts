import type { RawSample } from './stats-sample.js';

/** The fields of the Engine API's stats answer that Berth reads. */
export interface EngineStatsJson {
  read?: string;
  cpu_stats?: {
    cpu_usage?: { total_usage?: number };
    system_cpu_usage?: number;
    online_cpus?: number;
  };
  memory_stats?: { usage?: number; limit?: number; stats?: Record<string, number> };
  networks?: Record<string, { rx_bytes?: number; tx_bytes?: number }>;
  /** Per device and operation; `op` is `Read`/`Write` on cgroup v1, `read`/`write` on v2. */
  blkio_stats?: {
    io_service_bytes_recursive?: { op?: string; value?: number }[] | null;
  };
}

/** Bytes read and written over every device; undefined when the engine sent no block stats. */
function blockBytes(json: EngineStatsJson): { read: number; write: number } | undefined {
  if (json.blkio_stats === undefined) return undefined;
  let read = 0;
  let write = 0;
  // null: nothing was read or written yet (the engine leaves an empty list out).
  for (const entry of json.blkio_stats.io_service_bytes_recursive ?? []) {
    const op = entry.op?.toLowerCase();
    if (op === 'read') read += entry.value ?? 0;
    if (op === 'write') write += entry.value ?? 0;
  }
  return { read, write };
}

/** A RawSample from one `stats?stream=false&one-shot=true` answer. */
export function sampleFromEngineStats(json: EngineStatsJson): RawSample {
  const memStats = json.memory_stats?.stats ?? {};
  // cgroup v1 reports total_inactive_file, v2 inactive_file: the cache docker stats leaves out.
  const inactive = memStats.total_inactive_file ?? memStats.inactive_file ?? 0;
  let rx = 0;
  let tx = 0;
  for (const [name, counters] of Object.entries(json.networks ?? {})) {
    if (name === 'lo') continue;
    rx += counters.rx_bytes ?? 0;
    tx += counters.tx_bytes ?? 0;
  }
  const block = blockBytes(json);
  const readAt = json.read === undefined ? NaN : Date.parse(json.read);
  return {
    atNs: Number.isNaN(readAt) ? process.hrtime.bigint() : BigInt(readAt) * 1_000_000n,
    cpuNs: BigInt(Math.round(json.cpu_stats?.cpu_usage?.total_usage ?? 0)),
    systemCpuNs: BigInt(Math.round(json.cpu_stats?.system_cpu_usage ?? 0)),
    onlineCpus: json.cpu_stats?.online_cpus ?? 1,
    memoryBytes: Math.max(0, (json.memory_stats?.usage ?? 0) - inactive),
    memoryLimit: json.memory_stats?.limit ?? 0,
    rxBytes: rx,
    txBytes: tx,
    blockReadBytes: block?.read,
    blockWriteBytes: block?.write,
  };
}
