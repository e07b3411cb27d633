import type { Container } from '@berth/contracts';
import { containerTags, type ContainerSettingsRow } from '../../container-settings/index.js';
import type { Fleet } from '../../monitor/index.js';

/** What the engine reads of a container: its selectors' facts, its state and its stats. */
export type WatchedContainer = Pick<
  Container,
  | 'id'
  | 'host_id'
  | 'name'
  | 'tags'
  | 'desired_state'
  | 'state'
  | 'health'
  | 'exit_code'
  | 'cpu_percent'
  | 'memory_percent'
  | 'memory_limit'
>;

/** The user's settings of a container, by host and name. */
export type SettingsOf = (hostId: string, name: string) => ContainerSettingsRow | undefined;

/** The container as the monitor last saw it, with the user's tags and desired state. */
export function watchedContainer(
  fleet: Fleet,
  settingsOf: SettingsOf,
  hostId: string,
  name: string,
): WatchedContainer | undefined {
  const c = fleet.containerByName(hostId, name);
  if (c === undefined) return undefined;
  const settings = settingsOf(hostId, name);
  const stats = c.state === 'running' ? fleet.containerStats(hostId, c.id) : undefined;
  return {
    id: c.id,
    host_id: hostId,
    name: c.name,
    tags: containerTags(settings, c.labels),
    desired_state: (settings?.desired_state ?? 'unspecified') as Container['desired_state'],
    state: c.state,
    health: c.health,
    exit_code: c.exitCode,
    cpu_percent: stats?.cpu_percent ?? null,
    memory_percent: stats?.memory_percent ?? null,
    memory_limit: stats?.memory_limit ?? null,
  };
}
