import type {
  ResourcePruneResult,
  Volume,
  VolumeCreate,
  VolumeDetails,
  VolumePrunePreview,
  VolumeRemoveResponse,
  VolumesResponse,
} from '@berth/contracts';
import { volumeCreateSchema } from '@berth/contracts';
import type { Engine } from '../../docker/index.js';
import type { EngineVolume, VolumeSizes } from '../../docker/engine-volumes.js';
import { badRequest, conflict } from '../../platform/http-errors.js';
import type { AuditRecord } from '../audit/index.js';
import type { Fleet, FleetHost } from '../monitor/index.js';
import {
  containerUses,
  dependantOf,
  engineAnswer,
  engineWords,
  hostEngine,
  inTurns,
  isRunning,
  pruneSkipReason,
  readHosts,
  statusOf,
  type ContainerUse,
} from './resource-engine.js';

/** `/system/df` walks every volume's files: past this the list comes without sizes. */
export const VOLUME_SIZES_TIMEOUT_MS = 10_000;
/** Removals a prune sends to one engine at once. */
const PRUNE_WIDTH = 4;

export interface VolumesDeps {
  fleet: Fleet;
  audit?: { record(entry: AuditRecord): void };
}

/** Each volume's users by name: containers whose mounts name it, whatever their state. */
function usersByVolume(containers: ContainerUse[]): Map<string, ContainerUse[]> {
  const users = new Map<string, ContainerUse[]>();
  for (const c of containers)
    for (const m of c.Mounts ?? []) {
      if (m.Type !== 'volume' || m.Name === undefined) continue;
      const list = users.get(m.Name) ?? [];
      if (!list.includes(c)) list.push(c);
      users.set(m.Name, list);
    }
  return users;
}

function toVolume(
  host: FleetHost,
  v: EngineVolume,
  users: Map<string, ContainerUse[]>,
  sizes: VolumeSizes | null,
): Volume {
  const size = sizes?.get(v.Name);
  return {
    host_id: host.id,
    host_name: host.name,
    name: v.Name,
    driver: v.Driver,
    scope: v.Scope,
    mountpoint: v.Mountpoint,
    created: v.CreatedAt ?? null,
    labels: v.Labels ?? {},
    options: v.Options ?? {},
    size_bytes: size ?? null,
    in_use_by: (users.get(v.Name) ?? []).map(dependantOf),
  };
}

/** Sizes, or null with the reason kept; a slow df never fails the list. */
async function sizesOf(engine: Engine): Promise<{ sizes: VolumeSizes | null; why: string | null }> {
  try {
    return { sizes: await engine.volumeSizes(VOLUME_SIZES_TIMEOUT_MS), why: null };
  } catch (err) {
    const timedOut = (err as { name?: string }).name === 'AbortError';
    return {
      sizes: null,
      why: timedOut
        ? `the engine did not measure them within ${VOLUME_SIZES_TIMEOUT_MS / 1000} s`
        : (engineWords(err) ?? (err instanceof Error ? err.message : String(err))),
    };
  }
}

/** Volumes on the fleet's engines: list, inspect, create, remove, prune. */
export class VolumesService {
  constructor(private readonly deps: VolumesDeps) {}

  async list(hostIds: string[], withSizes: boolean): Promise<VolumesResponse> {
    const notes: string[] = [];
    const { items, hosts } = await readHosts(this.deps.fleet, hostIds, async (engine, host) => {
      const [volumes, containers, measured] = await Promise.all([
        engine.listVolumes(),
        containerUses(engine),
        withSizes ? sizesOf(engine) : { sizes: null, why: null },
      ]);
      if (measured.why !== null) notes.push(`${host.name}: ${measured.why}`);
      const users = usersByVolume(containers);
      return volumes.map((v) => toVolume(host, v, users, measured.sizes));
    });
    items.sort((a, b) => a.host_name.localeCompare(b.host_name) || a.name.localeCompare(b.name));
    const sizes_note = !withSizes
      ? 'Sizes not asked for'
      : notes.length > 0
        ? `Sizes not measured on ${notes.join('; ')}`
        : null;
    return { volumes: items, hosts, sizes_note };
  }

  async inspect(hostId: string, name: string): Promise<VolumeDetails> {
    const { host, engine } = hostEngine(this.deps.fleet, hostId, 'query');
    try {
      const [raw, containers] = await Promise.all([
        engine.inspectVolume(name),
        containerUses(engine),
      ]);
      const volume = toVolume(host, raw, usersByVolume(containers), null);
      return { volume, raw: raw as unknown as Record<string, unknown> };
    } catch (err) {
      throw engineAnswer(err, host.name, `Volume ${name}`);
    }
  }

  async create(hostId: string, input: VolumeCreate): Promise<Volume> {
    const body = volumeCreateSchema.parse(input);
    const { host, engine } = hostEngine(this.deps.fleet, hostId, 'action');
    // The engine answers an existing name with that volume, as if it made it: refused here.
    if (body.name !== undefined) {
      const existing = await engine.inspectVolume(body.name).then(
        () => true,
        (err: unknown) => {
          if (statusOf(err) === 404) return false;
          throw engineAnswer(err, host.name, `Volume ${body.name ?? ''}`);
        },
      );
      if (existing)
        throw conflict(`name: a volume named ${body.name} already exists on ${host.name}`);
    }
    try {
      const made = await engine.createVolume({
        ...(body.name === undefined ? {} : { Name: body.name }),
        Driver: body.driver,
        DriverOpts: body.driver_opts,
        Labels: body.labels,
      });
      return toVolume(host, made, new Map(), null);
    } catch (err) {
      // An unknown driver is the engine's 404 ("plugin not found"): bad input, named.
      if (statusOf(err) === 404) throw badRequest(`driver: ${engineWords(err) ?? 'not found'}`);
      throw engineAnswer(err, host.name, 'Volume');
    }
  }

  /**
   * Removes the volume. The engine refuses one that a container mounts, even with its own force:
   * Berth's `force` first removes the stopped containers that mount it (the confirm named
   * them), never a running one.
   */
  async remove(
    hostId: string,
    name: string,
    force: boolean,
    actor: string,
  ): Promise<VolumeRemoveResponse> {
    const { host, engine } = hostEngine(this.deps.fleet, hostId, 'action');
    const users = usersByVolume(
      await containerUses(engine).catch((err: unknown) => {
        throw engineAnswer(err, host.name, 'Containers');
      }),
    );
    const dependants = (users.get(name) ?? []).map(dependantOf);
    const removed: string[] = [];
    if (force && dependants.length > 0) {
      const running = dependants.filter(isRunning);
      if (running.length > 0)
        throw conflict(
          `Volume ${name} is in use by running container${running.length === 1 ? '' : 's'} ${running.map((d) => d.name).join(', ')}: stop ${running.length === 1 ? 'it' : 'them'} first`,
        );
      for (const d of dependants) {
        try {
          await engine.removeContainer(d.id, { force: false, volumes: false });
        } catch (err) {
          throw engineAnswer(err, host.name, `Container ${d.name}`);
        }
        removed.push(d.name);
        this.deps.audit?.record({
          source: 'api',
          actor,
          action: 'container.remove',
          host_id: host.id,
          host_name: host.name,
          container_id: d.id,
          container_name: d.name,
          target: `volumes ${name} (forced removal)`,
        });
      }
    }
    try {
      await engine.removeVolume(name, { force });
    } catch (err) {
      const answer = engineAnswer(err, host.name, `Volume ${name}`);
      if (answer.statusCode === 409 && dependants.length > 0)
        answer.message = `${answer.message} (used by ${dependants.map((d) => d.name).join(', ')})`;
      throw answer;
    }
    return { name, removed_containers: removed };
  }

  /** The unused volumes a prune would remove, and their size when every one was measured. */
  async prunePreview(hostId: string): Promise<VolumePrunePreview> {
    const { host, engine } = hostEngine(this.deps.fleet, hostId, 'query');
    try {
      const [volumes, containers, measured] = await Promise.all([
        engine.listVolumes(),
        containerUses(engine),
        sizesOf(engine),
      ]);
      const users = usersByVolume(containers);
      const names = volumes
        .map((v) => v.Name)
        .filter((n) => !users.has(n))
        .sort();
      return { host_id: host.id, names, space_bytes: spaceOf(names, measured.sizes) };
    } catch (err) {
      throw engineAnswer(err, host.name, 'Volumes');
    }
  }

  /** Removes the named volumes that are still unused now; the others are skipped with why. */
  async prune(hostId: string, names: string[], actor: string): Promise<ResourcePruneResult> {
    const { host, engine } = hostEngine(this.deps.fleet, hostId, 'action');
    const [containers, measured] = await Promise.all([
      containerUses(engine).catch((err: unknown) => {
        throw engineAnswer(err, host.name, 'Containers');
      }),
      sizesOf(engine),
    ]);
    const users = usersByVolume(containers);
    const skipped: ResourcePruneResult['skipped'] = [];
    const removed: string[] = [];
    await inTurns([...new Set(names)], PRUNE_WIDTH, async (name) => {
      const using = users.get(name);
      if (using !== undefined) {
        skipped.push({
          name,
          reason: `in use by ${using.map((c) => dependantOf(c).name).join(', ')}`,
        });
        return;
      }
      try {
        await engine.removeVolume(name);
        removed.push(name);
      } catch (err) {
        skipped.push({ name, reason: pruneSkipReason(err, host.name, name) });
      }
    });
    if (removed.length > 0)
      this.deps.audit?.record({
        source: 'api',
        actor,
        action: 'volume.prune.removed',
        host_id: host.id,
        host_name: host.name,
        target: `volumes ${removed.join(', ')}`,
      });
    return { removed, skipped, space_bytes: spaceOf(removed, measured.sizes) };
  }
}

function spaceOf(names: string[], sizes: VolumeSizes | null): number | null {
  if (sizes === null) return null;
  let total = 0;
  for (const n of names) {
    const size = sizes.get(n);
    if (size === undefined) return null;
    total += size;
  }
  return total;
}
