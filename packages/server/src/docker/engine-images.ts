import type Docker from 'dockerode';
import type { EngineClientOptions, EngineEndpoint } from './engine-client.js';

/** One entry of GET /images/json. */
export type ImageSummary = Docker.ImageInfo;

/** GET /images/{name}/json, the fields the images screen shows. */
export interface ImageInspect {
  Id: string;
  RepoTags?: string[] | null;
  RepoDigests?: string[] | null;
  Created?: string;
  Author?: string;
  Architecture?: string;
  Os?: string;
  Size?: number;
  Config?: {
    Cmd?: string[] | null;
    Entrypoint?: string[] | null;
    Env?: string[] | null;
    WorkingDir?: string;
    User?: string;
    ExposedPorts?: Record<string, unknown> | null;
    Volumes?: Record<string, unknown> | null;
    Labels?: Record<string, string> | null;
  } | null;
  RootFS?: { Layers?: string[] | null };
}

/** One entry of GET /images/{name}/history. */
export interface ImageHistoryItem {
  Id: string;
  /** Unix seconds. */
  Created: number;
  CreatedBy: string;
  Tags: string[] | null;
  Size: number;
  Comment: string;
}

/** One entry of DELETE /images/{name}'s answer. */
export interface ImageRemoved {
  Untagged?: string;
  Deleted?: string;
}

/** POST /images/prune's answer. */
export interface ImagesPruned {
  ImagesDeleted: ImageRemoved[] | null;
  SpaceReclaimed: number;
}

/**
 * The engine's images operations, part of `Engine` (engine.ts). Kept in a file of their own so
 * each resource's calls, their bounds and their answers' types are found together. Pulls are
 * the core's (`pullImage`): updates need them too.
 */
export interface EngineImages {
  /** Every image on the host, intermediate layers left out (the Engine API's summaries). */
  listImages(): Promise<ImageSummary[]>;
  /** The whole inspect answer (the core's `inspectImage` reads only what updates need). */
  describeImage(ref: string): Promise<ImageInspect>;
  imageHistory(ref: string): Promise<ImageHistoryItem[]>;
  /**
   * Removes an image (by id: all its tags). Without `force` the engine refuses an image a
   * container uses, or one several repositories name, with a 409 in its own words.
   */
  removeImage(ref: string, options?: { force?: boolean }): Promise<ImageRemoved[]>;
  /** The engine's prune of dangling images; it never removes one a container uses. */
  pruneDanglingImages(): Promise<ImagesPruned>;
}

/** The images operations over dockerode, mixed into the engine `openEngine` answers. */
export function imagesOperations(
  docker: Docker,
  _endpoint: EngineEndpoint,
  _options: EngineClientOptions,
): EngineImages {
  return {
    listImages: () => docker.listImages({ all: false }),
    describeImage: (ref) => docker.getImage(ref).inspect() as unknown as Promise<ImageInspect>,
    imageHistory: (ref) => docker.getImage(ref).history() as Promise<ImageHistoryItem[]>,
    removeImage: (ref, options = {}) =>
      docker.getImage(ref).remove({ force: options.force === true, noprune: false }) as Promise<
        ImageRemoved[]
      >,
    pruneDanglingImages: () => docker.pruneImages({ filters: { dangling: ['true'] } }),
  };
}
