import type { ContainerStats } from '../modules/stats/index.js';
import type { ContainerSnapshot, EngineDisk, FleetHost } from '../modules/monitor/index.js';
import type { HostStats } from '@berth/contracts';

/** One container of a fake fleet for the metrics history: its snapshot fields and stats. */
export interface FakeContainer {
  id: string;
  name: string;
  running: boolean;
  health?: 'healthy' | 'unhealthy' | 'starting' | null;
  restartCount?: number;
  stats: ContainerStats;
}

/** What the metrics history reads of the monitor, from plain objects a test changes. */
export function historyFleet(hosts: { id: string; status?: FleetHost['status'] }[]) {
  const containers = new Map<string, FakeContainer[]>(hosts.map((h) => [h.id, []]));
  const snapshot = (hostId: string, c: FakeContainer) =>
    ({
      id: c.id,
      fullId: c.id,
      name: c.name,
      state: c.running ? 'running' : 'exited',
      health: c.health ?? null,
      restartCount: c.restartCount ?? 0,
      hostId,
      hostName: hostId,
    }) as unknown as ContainerSnapshot;
  const listeners = new Set<() => void>();
  return {
    containers,
    add(hostId: string, c: FakeContainer) {
      containers.get(hostId)?.push(c);
      return c;
    },
    fleet: {
      hosts: (): FleetHost[] =>
        hosts.map((h) => ({ id: h.id, name: h.id, status: h.status ?? 'online', error: null })),
      host: (id: string) => {
        const h = hosts.find((x) => x.id === id);
        return h === undefined
          ? undefined
          : { id, name: id, status: h.status ?? 'online', error: null };
      },
      containers: (hostId?: string) =>
        (containers.get(hostId ?? '') ?? []).map((c) => snapshot(hostId ?? '', c)),
      container: (hostId: string, id: string) => {
        const c = containers.get(hostId)?.find((x) => x.id === id);
        return c === undefined ? undefined : snapshot(hostId, c);
      },
      containerStats: (hostId: string, id: string) =>
        containers.get(hostId)?.find((x) => x.id === id && x.running)?.stats,
      hostStats: (hostId: string): HostStats | null => {
        if (hosts.find((h) => h.id === hostId)?.status === 'offline') return null;
        let cpu = 0;
        let mem = 0;
        for (const c of containers.get(hostId) ?? [])
          if (c.running) {
            cpu += c.stats.cpu_percent;
            mem += c.stats.memory_usage;
          }
        return { cpu_percent: cpu, mem_percent: 10, mem_bytes: mem, net_bytes_per_sec: 0 };
      },
      engineDisk: (): Promise<EngineDisk> => Promise.resolve({ percent: 42.5, path: '/' }),
      on: (_event: 'statsSampled', listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    /** A stats pass ended. */
    sampled() {
      for (const l of listeners) l();
    },
  };
}

export function statsOf(cpu: number, mem: number, rx = 0, tx = 0): ContainerStats {
  return {
    cpu_percent: cpu,
    memory_usage: mem,
    memory_limit: 1000,
    memory_percent: mem / 10,
    network_rx: rx,
    network_tx: tx,
    net_bytes_per_sec: 0,
  };
}
