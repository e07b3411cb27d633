import type { HostStatus } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { EventInput } from '../events/index.js';
import type { EngineTarget } from '../hosts/index.js';
import type { RemoteFileSamples, StatsSource } from '../stats/index.js';
import type { ContainerStatesStore } from './container-states.store.js';
import type { FleetEventMap } from './fleet.js';

// What a HostSupervisor is given: the host it watches and what it may call back into.

/** The host as the supervisor needs it. */
export type SupervisedHost = EngineTarget;

/** Facts about the engine worth keeping while it is offline. */
export interface EngineFacts {
  os_version: string | null;
  docker_version: string | null;
  num_cpus: number | null;
  total_memory: number | null;
  daemon_started_at: string | null;
  last_checked: string;
}

export interface SupervisorContext {
  log: FastifyBaseLogger;
  statsSource: StatsSource;
  /** The host's agent reads its containers' files, when it can (decision 023). */
  agentStats?: (hostId: string) => RemoteFileSamples | null;
  /** Request timeout towards the engine (connection_timeout setting). */
  timeoutMs: () => number;
  record: (event: EventInput) => Promise<unknown>;
  saveFacts: (
    hostId: string,
    facts: Partial<EngineFacts> & { last_event_at?: number },
  ) => Promise<void>;
  /** Each host's containers as last seen, kept across restarts. */
  containerStates: ContainerStatesStore;
  /** Containers or their states changed: publish now, not on the next tick. */
  containersChanged: (hostId: string) => void;
  statusChanged: (hostId: string, status: HostStatus, error: string | null) => void;
  /** An engine event about one container, after the picture was updated. */
  containerEvent: (event: FleetEventMap['containerChanged']) => void;
}
