import type { ContainerState } from '@berth/contracts';

// Every topic and payload Berth publishes, as pure functions (docs/decisions/027):
//   <prefix>/status                                 online | offline, retained (the Last Will)
//   <prefix>/host/<host_id>/state                   JSON, retained
//   <prefix>/container/<host_id>/<name>/state       JSON, retained
//   <prefix>/container/<host_id>/<name>/command     start | stop | restart (subscribed)
//   <prefix>/events/alert                           JSON, not retained
// A container is named by its host and name, not its id: an update that recreates it keeps
// its topics, and Home Assistant its entities.

export const ONLINE = 'online';
export const OFFLINE = 'offline';

/** A topic level from a host id or container name: MQTT wildcards and separators replaced. */
export const level = (s: string): string => s.replace(/[^A-Za-z0-9_.-]/g, '_');

export const statusTopic = (prefix: string) => `${prefix}/status`;
export const alertTopic = (prefix: string) => `${prefix}/events/alert`;
export const hostStateTopic = (prefix: string, hostId: string) =>
  `${prefix}/host/${level(hostId)}/state`;
export const containerBase = (prefix: string, hostId: string, name: string) =>
  `${prefix}/container/${level(hostId)}/${level(name)}`;
export const containerStateTopic = (prefix: string, hostId: string, name: string) =>
  `${containerBase(prefix, hostId, name)}/state`;
/** What Berth subscribes to for commands: every container of every host. */
export const commandFilter = (prefix: string) => `${prefix}/container/+/+/command`;

/** A container's retained state. CPU in percent (0.1), memory in bytes (whole MiB). */
export interface ContainerStatePayload {
  state: ContainerState;
  health: 'healthy' | 'unhealthy' | 'starting' | null;
  cpu_percent: number | null;
  memory_bytes: number | null;
  update_available: boolean;
  image: string;
}

export interface HostStatePayload {
  name: string;
  status: string;
  cpu_percent: number | null;
  memory_percent: number | null;
  containers_running: number;
  containers_total: number;
}

const MIB = 1024 * 1024;
export const roundCpu = (v: number | null | undefined): number | null =>
  v === null || v === undefined ? null : Math.round(v * 10) / 10;
export const roundMemory = (v: number | null | undefined): number | null =>
  v === null || v === undefined ? null : Math.round(v / MIB) * MIB;

/**
 * Whether `next` is worth publishing over `last`: a change of state, health, image or
 * update, or CPU moving by half a point, or memory by more than a MiB. Smaller moves of the
 * figures wait for `staleMs` (the caller decides) so a retained value never lags for long.
 */
export function meaningfulChange(
  last: ContainerStatePayload | undefined,
  next: ContainerStatePayload,
): boolean {
  if (last === undefined) return true;
  if (
    last.state !== next.state ||
    last.health !== next.health ||
    last.update_available !== next.update_available ||
    last.image !== next.image
  )
    return true;
  if ((last.cpu_percent === null) !== (next.cpu_percent === null)) return true;
  if ((last.memory_bytes === null) !== (next.memory_bytes === null)) return true;
  if (Math.abs((last.cpu_percent ?? 0) - (next.cpu_percent ?? 0)) >= 0.5) return true;
  return Math.abs((last.memory_bytes ?? 0) - (next.memory_bytes ?? 0)) > MIB;
}

/** Whether two payloads differ at all (after rounding). */
export const differs = (a: object | undefined, b: object): boolean =>
  a === undefined || JSON.stringify(a) !== JSON.stringify(b);
