import type Docker from 'dockerode';
import type { EngineClientOptions, EngineEndpoint } from './engine-client.js';

/**
 * The engine's networks operations, part of `Engine` (engine.ts). Kept in a file of their own so
 * each resource's calls, their bounds and their answers' types are found together.
 */
export interface EngineNetworks {
  /** Every network on the host (the Engine API's list answer). */
  listNetworks(): Promise<Docker.NetworkInspectInfo[]>;
}

/** The networks operations over dockerode, mixed into the engine `openEngine` answers. */
export function networksOperations(
  docker: Docker,
  _endpoint: EngineEndpoint,
  _options: EngineClientOptions,
): EngineNetworks {
  return { listNetworks: () => docker.listNetworks() };
}
