import type Docker from 'dockerode';
import type { EngineClientOptions, EngineEndpoint } from './engine-client.js';

/**
 * The engine's exec operations, part of `Engine` (engine.ts). Kept in a file of their own so
 * each resource's calls, their bounds and their answers' types are found together.
 */
export interface EngineExec {
  /** The ids of the exec instances the engine keeps for a container (running or ended). */
  containerExecIds(containerId: string): Promise<string[]>;
}

/** The exec operations over dockerode, mixed into the engine `openEngine` answers. */
export function execOperations(
  docker: Docker,
  _endpoint: EngineEndpoint,
  _options: EngineClientOptions,
): EngineExec {
  return {
    containerExecIds: async (id) => (await docker.getContainer(id).inspect()).ExecIDs ?? [],
  };
}
