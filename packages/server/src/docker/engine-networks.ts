import type Docker from 'dockerode';
import type { EngineClientOptions, EngineEndpoint } from './engine-client.js';

/** A network as the engine describes it; `Labels` may be null. */
export type EngineNetwork = Omit<Docker.NetworkInspectInfo, 'Labels'> & {
  Labels?: Record<string, string> | null | undefined;
};

/** What a new network is made with (the Engine API's create body, the fields Berth sets). */
export interface NetworkCreateSpec {
  Name: string;
  Driver: string;
  Internal: boolean;
  Attachable: boolean;
  Labels: Record<string, string>;
  IPAM?: { Driver: 'default'; Config: { Subnet: string; Gateway?: string }[] };
}

/**
 * The engine's networks operations, part of `Engine` (engine.ts). Kept in a file of their own so
 * each resource's calls, their bounds and their answers' types are found together.
 */
export interface EngineNetworks {
  /** Every network on the host (the Engine API's list answer). */
  listNetworks(): Promise<EngineNetwork[]>;
  /** By id, short id or name; `Containers` lists the running containers attached. */
  inspectNetwork(id: string): Promise<EngineNetwork>;
  /** Answers the new network's id. */
  createNetwork(spec: NetworkCreateSpec): Promise<string>;
  removeNetwork(id: string): Promise<void>;
}

/** The networks operations over dockerode, mixed into the engine `openEngine` answers. */
export function networksOperations(
  docker: Docker,
  _endpoint: EngineEndpoint,
  _options: EngineClientOptions,
): EngineNetworks {
  return {
    listNetworks: () => docker.listNetworks(),
    inspectNetwork: (id) => docker.getNetwork(id).inspect(),
    createNetwork: async (spec) =>
      // CheckDuplicate: an engine before API 1.44 would otherwise make a second one by the name.
      (await docker.createNetwork({ ...spec, CheckDuplicate: true })).id,
    removeNetwork: async (id) => {
      await docker.getNetwork(id).remove();
    },
  };
}
