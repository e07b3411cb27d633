import type Docker from 'dockerode';
import type { EngineClientOptions, EngineEndpoint } from './engine-client.js';

/**
 * The engine's images operations, part of `Engine` (engine.ts). Kept in a file of their own so
 * each resource's calls, their bounds and their answers' types are found together.
 */
export interface EngineImages {
  /** Every image on the host, intermediate layers left out (the Engine API's summaries). */
  listImages(): Promise<Docker.ImageInfo[]>;
}

/** The images operations over dockerode, mixed into the engine `openEngine` answers. */
export function imagesOperations(
  docker: Docker,
  _endpoint: EngineEndpoint,
  _options: EngineClientOptions,
): EngineImages {
  return { listImages: () => docker.listImages({ all: false }) };
}
