import type { ResourceDependant, ResourceHostRead } from '@berth/contracts';
import { describeEngineError, type Engine } from '../../docker/index.js';
import {
  badRequest,
  conflict,
  forbidden,
  HttpError,
  notFound,
} from '../../platform/http-errors.js';
import type { Fleet, FleetHost } from '../monitor/index.js';

// What the volumes and networks modules share: a host's engine or why not, a fleet-wide read
// bounded per host, the containers that use a resource, and the engine's refusals as answers.

/** A host that takes longer than this is left out of a fleet-wide list, with the reason. */
export const HOST_READ_DEADLINE_MS = 15_000;

/** The engine's error text: its JSON `message`, else the error's own message. */
export function engineWords(err: unknown): string | null {
  const m = (err as { json?: { message?: unknown } } | null)?.json?.message;
  return typeof m === 'string' && m.trim() !== '' ? m.trim() : null;
}

export const statusOf = (err: unknown): number | undefined => {
  const s = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof s === 'number' ? s : undefined;
};

/** The host and its engine for a change or a read on one host; 404 or 409 when there is none. */
export function hostEngine(
  fleet: Fleet,
  hostId: string,
  purpose: 'query' | 'action',
): { host: FleetHost; engine: Engine } {
  const host = fleet.host(hostId);
  if (host === undefined) throw notFound('Host not found');
  const engine = fleet.engine(hostId, { purpose });
  if (engine === null) throw conflict(`Host ${host.name} is offline`);
  return { host, engine };
}

/**
 * An engine failure as an answer: the engine's own words with a status that says whose the
 * fault is (bad input 400, missing 404, in use or existing 409). A read-only agent's refusal
 * stays a 403; every other 403 of the engine (a network with active endpoints) is a conflict.
 */
export function engineAnswer(err: unknown, hostName: string, what: string): HttpError {
  if (err instanceof HttpError) return err;
  const status = statusOf(err);
  const words = engineWords(err);
  if (status === 404) return notFound(words ?? `${what} not found`);
  if (words !== null) {
    if (status === 400) return badRequest(words);
    if (status === 403 && /read-only/i.test(words)) return forbidden(words);
    return conflict(words);
  }
  return conflict(`${what} on ${hostName}: ${describeEngineError(err, hostName)}`);
}

/** `work`, or a rejection once `ms` passed (the engine call itself is bounded by its client). */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Each host in reach read at once; a host offline or failing is named with its reason. */
export async function readHosts<T>(
  fleet: Fleet,
  hostIds: string[],
  read: (engine: Engine, host: FleetHost) => Promise<T[]>,
): Promise<{ items: T[]; hosts: ResourceHostRead[] }> {
  const reads = await Promise.all(
    hostIds.map(async (hostId): Promise<{ items: T[]; host: ResourceHostRead }> => {
      const host = fleet.host(hostId);
      const named = { host_id: hostId, host_name: host?.name ?? hostId };
      const engine = host === undefined ? null : fleet.engine(hostId, { purpose: 'query' });
      if (host === undefined || engine === null)
        return { items: [], host: { ...named, error: `Host ${named.host_name} is offline` } };
      try {
        const items = await withDeadline(read(engine, host), HOST_READ_DEADLINE_MS, host.name);
        return { items, host: { ...named, error: null } };
      } catch (err) {
        const why = engineWords(err) ?? describeEngineError(err, host.name);
        return { items: [], host: { ...named, error: why } };
      }
    }),
  );
  return { items: reads.flatMap((r) => r.items), hosts: reads.map((r) => r.host) };
}

/** The fields of the engine's container list that say what a container uses. */
export interface ContainerUse {
  Id: string;
  Names?: string[];
  State?: string;
  Mounts?: { Type?: string; Name?: string }[] | null;
  NetworkSettings?: { Networks?: Record<string, { NetworkID?: string }> | null } | null;
}

export const dependantOf = (c: ContainerUse): ResourceDependant => ({
  id: c.Id.slice(0, 12),
  name: (c.Names?.[0] ?? c.Id.slice(0, 12)).replace(/^\//, ''),
  state: c.State ?? 'unknown',
});

/** Every container on the host, running or not, as the engine lists them. */
export async function containerUses(engine: Engine): Promise<ContainerUse[]> {
  return await engine.listContainers();
}

const RUNNING = new Set(['running', 'paused', 'restarting']);
export const isRunning = (d: ResourceDependant): boolean => RUNNING.has(d.state);

/** Why a prune skipped `name` when the engine refused its removal: gone already, or its words. */
export const pruneSkipReason = (err: unknown, hostName: string, name: string): string =>
  statusOf(err) === 404 ? 'no longer exists' : engineAnswer(err, hostName, name).message;

/** Runs `work` over `items`, `width` at a time, in order of the items. */
export async function inTurns<T, R>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return out;
}
