import {
  BUILTIN_NETWORKS,
  networkCreateSchema,
  type Network,
  type NetworkCreate,
  type NetworkCreated,
  type NetworkDetails,
  type NetworkPrunePreview,
  type NetworksResponse,
  type ResourcePruneResult,
} from '@berth/contracts';
import type { EngineNetwork } from '../../docker/engine-networks.js';
import { badRequest, conflict } from '../../platform/http-errors.js';
import type { AuditRecord } from '../audit/index.js';
import type { Fleet, FleetHost } from '../monitor/index.js';
import {
  containerUses,
  dependantOf,
  engineAnswer,
  hostEngine,
  inTurns,
  pruneSkipReason,
  readHosts,
  statusOf,
  type ContainerUse,
} from '../volumes/index.js';

/** Removals a prune sends to one engine at once. */
const PRUNE_WIDTH = 4;

export interface NetworksDeps {
  fleet: Fleet;
  audit?: { record(entry: AuditRecord): void };
}

const isBuiltin = (n: { Name: string }) => BUILTIN_NETWORKS.includes(n.Name);

/**
 * Each network's users by id: containers whose settings name it, whatever their state (a stopped
 * container's network is kept by a prune, as its start would need it), and the running ones
 * an inspect lists.
 */
function usersOf(n: EngineNetwork, containers: ContainerUse[]): ContainerUse[] {
  const attached = new Set(Object.keys(n.Containers ?? {}));
  return containers.filter((c) => {
    if (attached.has(c.Id)) return true;
    const nets = c.NetworkSettings?.Networks ?? {};
    return Object.entries(nets).some(([name, ep]) => ep.NetworkID === n.Id || name === n.Name);
  });
}

function toNetwork(host: FleetHost, n: EngineNetwork, containers: ContainerUse[]): Network {
  return {
    host_id: host.id,
    host_name: host.name,
    id: n.Id,
    name: n.Name,
    driver: n.Driver,
    scope: n.Scope,
    created: n.Created === '' ? null : n.Created,
    internal: n.Internal,
    attachable: n.Attachable,
    subnets: (n.IPAM?.Config ?? []).map((c) => ({
      subnet: c.Subnet ?? null,
      gateway: c.Gateway ?? null,
    })),
    labels: n.Labels ?? {},
    builtin: isBuiltin(n),
    in_use_by: usersOf(n, containers).map(dependantOf),
  };
}

/** Networks on the fleet's engines: list, inspect, create, remove, prune. */
export class NetworksService {
  constructor(private readonly deps: NetworksDeps) {}

  async list(hostIds: string[]): Promise<NetworksResponse> {
    const { items, hosts } = await readHosts(this.deps.fleet, hostIds, async (engine, host) => {
      const [networks, containers] = await Promise.all([
        engine.listNetworks(),
        containerUses(engine),
      ]);
      return networks.map((n) => toNetwork(host, n, containers));
    });
    items.sort((a, b) => a.host_name.localeCompare(b.host_name) || a.name.localeCompare(b.name));
    return { networks: items, hosts };
  }

  async inspect(hostId: string, id: string): Promise<NetworkDetails> {
    const { host, engine } = hostEngine(this.deps.fleet, hostId, 'query');
    try {
      const [raw, containers] = await Promise.all([
        engine.inspectNetwork(id),
        containerUses(engine),
      ]);
      return {
        network: toNetwork(host, raw, containers),
        raw: raw as unknown as Record<string, unknown>,
      };
    } catch (err) {
      throw engineAnswer(err, host.name, `Network ${id}`);
    }
  }

  async create(hostId: string, input: NetworkCreate): Promise<NetworkCreated> {
    const body = networkCreateSchema.parse(input);
    const { host, engine } = hostEngine(this.deps.fleet, hostId, 'action');
    try {
      const id = await engine.createNetwork({
        Name: body.name,
        Driver: body.driver,
        Internal: body.internal,
        Attachable: body.attachable,
        Labels: body.labels,
        ...(body.subnet === undefined
          ? {}
          : {
              IPAM: {
                Driver: 'default',
                Config: [
                  {
                    Subnet: body.subnet,
                    ...(body.gateway === undefined ? {} : { Gateway: body.gateway }),
                  },
                ],
              },
            }),
      });
      return { id, name: body.name, host_id: host.id };
    } catch (err) {
      const answer = engineAnswer(err, host.name, 'Network');
      // The engine's words, with the field they are about when it is plain which one.
      if (statusOf(err) === 404) answer.message = `driver: ${answer.message}`;
      else if (/already exists/i.test(answer.message)) answer.message = `name: ${answer.message}`;
      else if (/pool|subnet|overlap/i.test(answer.message))
        answer.message = `subnet: ${answer.message}`;
      else if (/gateway/i.test(answer.message)) answer.message = `gateway: ${answer.message}`;
      // An unknown driver is the engine's 404 ("plugin not found"): bad input.
      throw statusOf(err) === 404 ? badRequest(answer.message) : answer;
    }
  }

  /** The engine refuses a network with running containers attached: its words, then who. */
  async remove(hostId: string, id: string): Promise<{ id: string; name: string }> {
    const { host, engine } = hostEngine(this.deps.fleet, hostId, 'action');
    let network: EngineNetwork;
    let containers: ContainerUse[];
    try {
      [network, containers] = await Promise.all([engine.inspectNetwork(id), containerUses(engine)]);
    } catch (err) {
      throw engineAnswer(err, host.name, `Network ${id}`);
    }
    if (isBuiltin(network))
      throw conflict(
        `${network.Name} is one of the engine's built-in networks (bridge, host, none) and cannot be removed`,
      );
    const users = usersOf(network, containers).map(dependantOf);
    try {
      await engine.removeNetwork(network.Id);
    } catch (err) {
      const answer = engineAnswer(err, host.name, `Network ${network.Name}`);
      if (answer.statusCode === 409 && users.length > 0)
        answer.message = `${answer.message} (attached: ${users.map((u) => u.name).join(', ')})`;
      throw answer;
    }
    return { id: network.Id, name: network.Name };
  }

  /** Networks no container names and the engine may remove (not built-in, not swarm ingress). */
  async prunePreview(hostId: string): Promise<NetworkPrunePreview> {
    const { host, engine } = hostEngine(this.deps.fleet, hostId, 'query');
    try {
      const [networks, containers] = await Promise.all([
        engine.listNetworks(),
        containerUses(engine),
      ]);
      const unused = networks
        .filter((n) => !isBuiltin(n) && !n.Ingress && usersOf(n, containers).length === 0)
        .map((n) => ({ id: n.Id, name: n.Name }))
        .sort((a, b) => a.name.localeCompare(b.name));
      return { host_id: host.id, networks: unused };
    } catch (err) {
      throw engineAnswer(err, host.name, 'Networks');
    }
  }

  /** Removes the given networks that are still unused; the others are skipped with why. */
  async prune(hostId: string, ids: string[], actor: string): Promise<ResourcePruneResult> {
    const { host, engine } = hostEngine(this.deps.fleet, hostId, 'action');
    let networks: EngineNetwork[];
    let containers: ContainerUse[];
    try {
      [networks, containers] = await Promise.all([engine.listNetworks(), containerUses(engine)]);
    } catch (err) {
      throw engineAnswer(err, host.name, 'Networks');
    }
    const byId = new Map(networks.map((n) => [n.Id, n]));
    const removed: string[] = [];
    const skipped: ResourcePruneResult['skipped'] = [];
    await inTurns([...new Set(ids)], PRUNE_WIDTH, async (id) => {
      const n = byId.get(id);
      if (n === undefined) return skipped.push({ name: id, reason: 'no longer exists' });
      if (isBuiltin(n)) return skipped.push({ name: n.Name, reason: 'built-in network' });
      const users = usersOf(n, containers);
      if (users.length > 0)
        return skipped.push({
          name: n.Name,
          reason: `in use by ${users.map((c) => dependantOf(c).name).join(', ')}`,
        });
      try {
        await engine.removeNetwork(n.Id);
        return removed.push(n.Name);
      } catch (err) {
        return skipped.push({ name: n.Name, reason: pruneSkipReason(err, host.name, n.Name) });
      }
    });
    if (removed.length > 0)
      this.deps.audit?.record({
        source: 'api',
        actor,
        action: 'network.prune.removed',
        host_id: host.id,
        host_name: host.name,
        target: `networks ${removed.join(', ')}`,
      });
    return { removed, skipped, space_bytes: null };
  }
}
