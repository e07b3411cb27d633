import type Docker from 'dockerode';
import type { EngineClientOptions, EngineEndpoint } from './engine-client.js';

/** A volume as the engine describes it: `CreatedAt` is in the answer, and `Labels` may be null. */
export type EngineVolume = Omit<Docker.VolumeInspectInfo, 'Labels'> & {
  CreatedAt?: string;
  Labels: Record<string, string> | null;
};

/** What a new volume is made with (the Engine API's create body). */
export interface VolumeCreateSpec {
  Name?: string;
  Driver: string;
  DriverOpts: Record<string, string>;
  Labels: Record<string, string>;
}

/** Each volume's size in bytes as `/system/df` measured it; -1 or absent when not measured. */
export type VolumeSizes = Map<string, number>;

/**
 * The engine's volumes operations, part of `Engine` (engine.ts). Kept in a file of their own so
 * each resource's calls, their bounds and their answers' types are found together.
 */
export interface EngineVolumes {
  /** Every volume on the host (the Engine API's list answer). */
  listVolumes(): Promise<EngineVolume[]>;
  inspectVolume(name: string): Promise<EngineVolume>;
  createVolume(spec: VolumeCreateSpec): Promise<EngineVolume>;
  /** `force` drops the volume even when its driver fails to; the engine still refuses one in use. */
  removeVolume(name: string, options?: { force?: boolean }): Promise<void>;
  /**
   * Sizes from `/system/df` (which walks every volume's files, so it can be slow): aborted
   * after `timeoutMs`, whatever the client's own timeout.
   */
  volumeSizes(timeoutMs: number): Promise<VolumeSizes>;
}

interface DfAnswer {
  Volumes?: { Name: string; UsageData?: { Size?: number } | null }[] | null;
}

/** The volumes operations over dockerode, mixed into the engine `openEngine` answers. */
export function volumesOperations(
  docker: Docker,
  _endpoint: EngineEndpoint,
  _options: EngineClientOptions,
): EngineVolumes {
  return {
    listVolumes: async () => (await docker.listVolumes()).Volumes,
    inspectVolume: (name) => docker.getVolume(name).inspect(),
    // dockerode answers a handle; the engine's own answer is read back by name.
    createVolume: async (spec) => await (await docker.createVolume(spec)).inspect(),
    removeVolume: async (name, options = {}) => {
      await docker.getVolume(name).remove({ force: options.force === true });
    },
    volumeSizes: async (timeoutMs) => {
      // `type=volume` spares an engine of API 1.42 or later counting images and containers
      // too; older engines ignore it and answer everything.
      const answer = await new Promise<DfAnswer>((resolve, reject) => {
        docker.modem.dial(
          {
            path: '/system/df?',
            method: 'GET',
            options: { type: 'volume' },
            abortSignal: AbortSignal.timeout(timeoutMs),
            statusCodes: { 200: true, 400: 'bad parameter', 500: 'server error' },
          },
          (err: Error | null | undefined, data: unknown) => {
            if (err !== null && err !== undefined) reject(err);
            else resolve(data ?? {});
          },
        );
      });
      const sizes: VolumeSizes = new Map();
      for (const v of answer.Volumes ?? []) {
        const size = v.UsageData?.Size;
        if (typeof size === 'number' && size >= 0) sizes.set(v.Name, size);
      }
      return sizes;
    },
  };
}
