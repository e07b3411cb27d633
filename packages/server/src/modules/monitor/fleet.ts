import type { Host, HostStats, HostStatus, Sparklines } from '@berth/contracts';
import type { ContainerStats } from '../stats/index.js';
import type { Engine } from '../../docker/index.js';
import type { EngineContainer } from './engine-container.js';

// The monitor as every other module sees it: read-mostly snapshots, engines by
// purpose, and events to subscribe to. The supervisors behind it stay private, so the
// live picture can only change through the monitor itself.

/** One container as the monitor last saw it; frozen, so readers cannot change the picture. */
export type ContainerSnapshot = Readonly<EngineContainer> & {
  readonly hostId: string;
  readonly hostName: string;
};

/** A supervised host: who it is and how it is doing. */
export interface FleetHost {
  readonly id: string;
  readonly name: string;
  readonly status: HostStatus;
  readonly error: string | null;
}

/**
 * What an engine is asked for. `query` answers within the connection timeout; `action`
 * may be held for a container's whole stop timeout (stop, restart), so it waits longer.
 */
export type EnginePurpose = 'query' | 'action';

/** The events other modules may subscribe to. */
export interface FleetEventMap {
  /** An engine event about one container, after the picture was updated. */
  containerChanged: {
    hostId: string;
    /** The engine's action: start, die, stop, destroy, health_status: healthy, ... */
    action: string;
    /** Short id. */
    containerId: string;
    name: string;
    /** The container after the event; null once it is gone. */
    container: ContainerSnapshot | null;
    /**
     * For a `kill`: the signal the engine sent, as it names it ('15', 'SIGTERM'); null for
     * other actions. A user's stop or restart begins with the container's stop signal.
     */
    signal: string | null;
  };
  hostStatusChanged: { hostId: string; status: HostStatus; error: string | null };
  /** A stats pass over every host ended; `containerStats` and the sparklines have its samples. */
  statsSampled: { at: string };
  /**
   * Something a container list shows changed (an engine event, an action, a host's status, a
   * setting someone reported through `changed()`): shown lists should be sent again.
   */
  containersChanged: Record<string, never>;
}

export type FleetEvent = keyof FleetEventMap;

/** A host's aggregates from the last stats pass, with the memory they are measured against. */
export interface FleetHostMetrics {
  cpu_percent: number;
  mem_percent: number;
  total_memory: number;
}

/** What the monitor knows live of a host's engine; null fields before its first contact. */
export type HostRuntime = Pick<
  Host,
  | 'status'
  | 'stats'
  | 'sparklines'
  | 'containers'
  | 'container_count'
  | 'last_checked'
  | 'daemon_started_at'
  | 'uptime_source'
  | 'uptime_note'
> & { error: string | null };

/** The filesystem holding an engine's data root: measured, or why it cannot be. */
export type EngineDisk = { percent: number; path: string } | { unavailable: string };
export type FleetListener<E extends FleetEvent> = (payload: FleetEventMap[E]) => void;

export interface Fleet {
  host(hostId: string): FleetHost | undefined;
  hosts(): FleetHost[];
  /** A container by its short or full id. */
  container(hostId: string, containerId: string): ContainerSnapshot | undefined;
  containerByName(hostId: string, name: string): ContainerSnapshot | undefined;
  /** Every container of every reachable host, or of one host. */
  containers(hostId?: string): ContainerSnapshot[];
  /** The host's engine; null when the host is unknown or offline. */
  engine(hostId: string, options: { purpose: EnginePurpose }): Engine | null;
  /** Re-reads one container after an action, so answers and pushes carry its new state. */
  refresh(hostId: string, containerId: string): Promise<ContainerSnapshot | null>;
  /** Something a container list shows changed outside the engine: announce `containersChanged`. */
  changed(): void;
  on<E extends FleetEvent>(event: E, listener: FleetListener<E>): () => void;
  /** A running container's last stats sample (short id). */
  containerStats(hostId: string, containerId: string): ContainerStats | undefined;
  /** The host's aggregates over its running containers; null while offline. */
  hostStats(hostId: string): HostStats | null;
  /** The host's aggregate series, one point per stats pass. */
  hostSparklines(hostId: string): Sparklines | null;
  /** Each sampled container's series, by short id. */
  containerSparklines(hostId: string): [string, Sparklines][];
  /** Live facts of a supervised host; null when it is not supervised. */
  runtimeOf(hostId: string): HostRuntime | null;
  /** The host's aggregates from the last stats pass; null while offline or before one. */
  hostMetrics(hostId: string): FleetHostMetrics | null;
  /**
   * Keeps stats at the polling interval while `wanted`, browser or not (alert rules on
   * metrics must not wait for a viewer). Each owner's wish counts separately.
   */
  demandStats(owner: string, wanted: boolean): void;
  /**
   * Percent used of the filesystem holding the engine's data root. Measured only for a
   * local unix-socket engine whose data root this process can see; never guessed.
   */
  engineDisk(hostId: string): Promise<EngineDisk>;
}
