import type Docker from 'dockerode';
import type { EngineClientOptions, EngineEndpoint } from './engine-client.js';

/**
 * The engine's volumes operations, part of `Engine` (engine.ts). Kept in a file of their own so
 * each resource's calls, their bounds and their answers' types are found together.
 */
export interface EngineVolumes {
  /** Every volume on the host (the Engine API's list answer). */
  listVolumes(): Promise<Docker.VolumeInspectInfo[]>;
}

/** The volumes operations over dockerode, mixed into the engine `openEngine` answers. */
export function volumesOperations(
  docker: Docker,
  _endpoint: EngineEndpoint,
  _options: EngineClientOptions,
): EngineVolumes {
  return { listVolumes: async () => (await docker.listVolumes()).Volumes };
}
