import type {
  ContainerCreateSpec,
  ContainerDetails,
  ContainerLogsQuery,
  ContainerSummary,
  EndpointSettings,
  EngineInfo,
  EngineVersion,
  ImageDetails,
  PullEvent,
  RegistryAuth,
} from './engine-types.js';
import type { EngineEventHandlers, EngineEventQuery, EngineEventStream } from './event-stream.js';
import type { EngineExec } from './engine-exec.js';
import type { EngineImages } from './engine-images.js';
import type { EngineNetworks } from './engine-networks.js';
import type { EngineVolumes } from './engine-volumes.js';

/**
 * A host's engine: the operations Berth's modules run on it, whatever carries them (a unix
 * socket, TCP, mutual TLS, later the agent's connection). Every call is bounded: it connects
 * and gets its first byte within the engine's timeout (an action engine waits up to a
 * container's whole stop timeout), buffered answers are capped in size, streams end when
 * their reader stops. A failure the engine answered carries its HTTP `statusCode` (404: no
 * such container or image); a connection failure carries the system's `code`.
 */
export type Engine = EngineCore & EngineImages & EngineVolumes & EngineNetworks & EngineExec;

/** Containers, events, stats and the images an update needs. */
export interface EngineCore {
  /** Resolves when the engine answers its ping. */
  ping(): Promise<void>;
  info(): Promise<EngineInfo>;
  version(): Promise<EngineVersion>;

  /** Every container, running or not. */
  listContainers(): Promise<ContainerSummary[]>;
  /** By full id, short id or name. */
  inspectContainer(id: string): Promise<ContainerDetails>;
  startContainer(id: string): Promise<void>;
  /** Without `timeoutSeconds` the engine waits the container's own stop timeout. */
  stopContainer(id: string, options?: { timeoutSeconds?: number }): Promise<void>;
  restartContainer(id: string): Promise<void>;
  pauseContainer(id: string): Promise<void>;
  unpauseContainer(id: string): Promise<void>;
  /** Anonymous volumes are kept unless `volumes` says otherwise. */
  removeContainer(id: string, options?: { force?: boolean; volumes?: boolean }): Promise<void>;
  renameContainer(id: string, name: string): Promise<void>;
  /** Creates (not starts) a container; answers its full id. */
  createContainer(spec: ContainerCreateSpec): Promise<string>;
  connectNetwork(network: string, containerId: string, endpoint: EndpointSettings): Promise<void>;

  /**
   * Reads a container's logs (stdout, stderr, timestamps, no follow) chunk by chunk:
   * `onChunk` returns false once it wants no more. A pause longer than the timeout fails it.
   */
  containerLogs(
    id: string,
    query: ContainerLogsQuery,
    onChunk: (chunk: Buffer) => boolean,
  ): Promise<void>;
  /** One stats answer (`stream=false&one-shot=true`) as the engine's JSON. */
  containerStats(id: string, signal: AbortSignal): Promise<unknown>;
  /**
   * Opens the event stream and resolves once the engine answered with headers (nothing
   * after that moment is missed); `since` replays what happened before.
   */
  events(query: EngineEventQuery, handlers: EngineEventHandlers): Promise<EngineEventStream>;

  inspectImage(ref: string): Promise<ImageDetails>;
  tagImage(ref: string, target: { repo: string; tag: string }): Promise<void>;
  /**
   * Pulls an image, reporting each progress event; rejects with the engine's error, also
   * one reported inside the stream (a registry refusal arrives after the 200). `signal`
   * cancels it: the engine's stream is closed, and the engine stops a pull no client follows.
   */
  pullImage(
    ref: string,
    auth: RegistryAuth | null,
    onProgress: (event: PullEvent) => void,
    signal?: AbortSignal,
  ): Promise<void>;
}
