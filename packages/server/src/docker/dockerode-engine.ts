import type Docker from 'dockerode';
import type { Engine, EngineCore } from './engine.js';
import { execOperations } from './engine-exec.js';
import { imagesOperations } from './engine-images.js';
import { networksOperations } from './engine-networks.js';
import { volumesOperations } from './engine-volumes.js';
import {
  createEngineClient,
  engineLimits,
  type EngineClientOptions,
  type EngineEndpoint,
} from './engine-client.js';
import { readContainerLogs } from './engine-logs.js';
import { readContainerStats } from './engine-stats.js';
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
import {
  openEngineEvents,
  type EngineEventHandlers,
  type EngineEventQuery,
} from './event-stream.js';

/**
 * The engine at `endpoint` (unix socket, TCP or mutual TLS), reached through dockerode with
 * the client's guarded agents: `options` set its timeouts and answer cap (engine-client.ts).
 */
export function openEngine(endpoint: EngineEndpoint, options: EngineClientOptions = {}): Engine {
  const docker = createEngineClient(endpoint, options);
  // The container operations are the class's; each resource's come from its own file.
  return Object.assign(new DockerodeEngine(endpoint, docker, options), {
    ...imagesOperations(docker, endpoint, options),
    ...volumesOperations(docker, endpoint, options),
    ...networksOperations(docker, endpoint, options),
    ...execOperations(docker, endpoint, options),
  });
}

/** The Engine operations over dockerode; the answers' JSON is the Engine API's own. */
class DockerodeEngine implements EngineCore {
  constructor(
    private readonly endpoint: EngineEndpoint,
    private readonly docker: Docker,
    private readonly options: EngineClientOptions,
  ) {}

  async ping(): Promise<void> {
    await this.docker.ping();
  }

  info(): Promise<EngineInfo> {
    return this.docker.info() as Promise<EngineInfo>;
  }

  version(): Promise<EngineVersion> {
    return this.docker.version();
  }

  listContainers(): Promise<ContainerSummary[]> {
    return this.docker.listContainers({ all: true });
  }

  inspectContainer(id: string): Promise<ContainerDetails> {
    return this.docker.getContainer(id).inspect() as unknown as Promise<ContainerDetails>;
  }

  async startContainer(id: string): Promise<void> {
    await this.docker.getContainer(id).start();
  }

  async stopContainer(id: string, options: { timeoutSeconds?: number } = {}): Promise<void> {
    const container = this.docker.getContainer(id);
    await (options.timeoutSeconds === undefined
      ? container.stop()
      : container.stop({ t: options.timeoutSeconds }));
  }

  async restartContainer(id: string): Promise<void> {
    await this.docker.getContainer(id).restart();
  }

  async pauseContainer(id: string): Promise<void> {
    await this.docker.getContainer(id).pause();
  }

  async unpauseContainer(id: string): Promise<void> {
    await this.docker.getContainer(id).unpause();
  }

  async removeContainer(
    id: string,
    options: { force?: boolean; volumes?: boolean } = {},
  ): Promise<void> {
    await this.docker
      .getContainer(id)
      .remove({ force: options.force === true, v: options.volumes === true });
  }

  async renameContainer(id: string, name: string): Promise<void> {
    await this.docker.getContainer(id).rename({ name });
  }

  async createContainer(spec: ContainerCreateSpec): Promise<string> {
    // The spec is the Engine API's create body, which dockerode passes on as it is.
    return (await this.docker.createContainer(spec as unknown as Docker.ContainerCreateOptions)).id;
  }

  async connectNetwork(
    network: string,
    containerId: string,
    endpoint: EndpointSettings,
  ): Promise<void> {
    await this.docker
      .getNetwork(network)
      .connect({ Container: containerId, EndpointConfig: endpoint as Docker.EndpointSettings });
  }

  containerLogs(
    id: string,
    query: ContainerLogsQuery,
    onChunk: (chunk: Buffer) => boolean,
  ): Promise<void> {
    return readContainerLogs(this.docker, id, query, onChunk);
  }

  containerStats(id: string, signal: AbortSignal): Promise<unknown> {
    return readContainerStats(this.docker, id, signal);
  }

  /** A stream of its own: quiet for as long as nothing happens, so no idle timeout. */
  events(query: EngineEventQuery, handlers: EngineEventHandlers) {
    const limits = engineLimits(this.options);
    return openEngineEvents(
      this.endpoint,
      query,
      { connectTimeoutMs: limits.connectTimeoutMs, firstByteTimeoutMs: limits.firstByteTimeoutMs },
      handlers,
    );
  }

  inspectImage(ref: string): Promise<ImageDetails> {
    return this.docker.getImage(ref).inspect() as unknown as Promise<ImageDetails>;
  }

  async tagImage(ref: string, target: { repo: string; tag: string }): Promise<void> {
    await this.docker.getImage(ref).tag(target);
  }

  async pullImage(
    ref: string,
    auth: RegistryAuth | null,
    onProgress: (event: PullEvent) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    signal?.throwIfAborted();
    const stream = (await this.docker.pull(
      ref,
      auth === null ? {} : { authconfig: auth },
    )) as NodeJS.ReadableStream & { destroy(error?: Error): void };
    const cancel = () => stream.destroy(new Error(`The pull of ${ref} was cancelled`));
    if (signal?.aborted === true) cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    await new Promise<void>((resolve, reject) => {
      this.docker.modem.followProgress(
        stream,
        (err: Error | null, output: PullEvent[] | undefined) => {
          const failed = output?.find((o) => o.error !== undefined);
          if (err !== null) reject(err);
          else if (failed !== undefined)
            reject(new Error(failed.errorDetail?.message ?? failed.error));
          else resolve();
        },
        onProgress,
      );
    }).finally(() => signal?.removeEventListener('abort', cancel));
  }
}
