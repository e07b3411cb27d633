import {
  LIVE_PROTOCOL_SPEC,
  type Container,
  type HostStats,
  type LiveContainersState,
  type SpecLiveMessage,
  type Sparklines,
} from '@berth/contracts';
import type { LiveClient } from '../../platform/live-hub.js';
import type { ContainerSettingsRow } from '../container-settings/index.js';
import { SparklineSet } from '../stats/index.js';
import { derivedTags, statusText, type EngineContainer } from './engine-container.js';
import type { HostSupervisor } from './host-supervisor.js';

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The API shape of one container: engine facts, Berth's settings and live stats. */
export function toContainer(
  sup: HostSupervisor,
  c: Readonly<EngineContainer>,
  settings: ContainerSettingsRow | undefined,
  defaultAutoRestart: boolean,
): Container {
  const stats = c.state === 'running' ? sup.stats.statsOf(c.id) : undefined;
  const userTags = settings ? (JSON.parse(settings.tags) as string[]) : [];
  return {
    host_id: sup.id,
    host_name: sup.name,
    id: c.id,
    short_id: c.id,
    name: c.name,
    image: c.image,
    state: c.state,
    status: statusText(c),
    health: c.health,
    exit_code: c.exitCode,
    created: c.created,
    started_at: c.startedAt,
    restart_policy: c.restartPolicy,
    ports: c.ports,
    volumes: c.volumes,
    env: c.env,
    labels: c.labels,
    tags: [...new Set([...userTags, ...derivedTags(c.labels)])],
    auto_restart: settings?.auto_restart == null ? defaultAutoRestart : settings.auto_restart === 1,
    desired_state: (settings?.desired_state ?? 'unspecified') as Container['desired_state'],
    web_ui_url: settings?.web_ui_url ?? null,
    auto_update_enabled: settings?.auto_update_enabled === 1,
    floating_tag_mode: (settings?.floating_tag_mode ?? 'exact') as Container['floating_tag_mode'],
    cpu_percent: stats?.cpu_percent ?? null,
    memory_usage: stats?.memory_usage ?? null,
    memory_limit: stats?.memory_limit ?? null,
    memory_percent: stats?.memory_percent ?? null,
    network_rx: stats?.network_rx ?? null,
    network_tx: stats?.network_tx ?? null,
    net_bytes_per_sec: stats?.net_bytes_per_sec ?? null,
  };
}

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

/** Which containers_update a client gets: the spec's shape, or deltas with or without sparklines. */
export function liveForm(client: Pick<LiveClient, 'protocol' | 'containerSparklines'>) {
  if (client.protocol === LIVE_PROTOCOL_SPEC) return 'spec';
  return client.containerSparklines ? 'deltas' : 'deltas-lean';
}

/** The spec's containers_update: the whole state, series keyed by host id and container key. */
export function specContainersUpdate(
  state: LiveContainersState,
  timestamp: string,
): SpecLiveMessage {
  const { containers, host_metrics, host_sparklines, container_sparklines } = state;
  return {
    type: 'containers_update',
    data: { containers, host_metrics, host_sparklines, container_sparklines, timestamp },
  };
}
