import type { Container } from '@berth/contracts';
import { containerTags, type ContainerSettingsRow } from '../container-settings/index.js';
import type { ContainerSnapshot } from '../monitor/index.js';
import type { ContainerStats } from '../stats/index.js';
import { statusText } from './status-text.js';

/** The API shape of one container: engine facts, Berth's settings and live stats. */
export function toContainer(
  c: ContainerSnapshot,
  stats: ContainerStats | undefined,
  settings: ContainerSettingsRow | undefined,
  defaultAutoRestart: boolean,
): Container {
  const live = c.state === 'running' ? stats : undefined;
  return {
    host_id: c.hostId,
    host_name: c.hostName,
    id: c.id,
    short_id: c.id,
    name: c.name,
    image: c.image,
    state: c.state,
    status: statusText(c),
    health: c.health,
    exit_code: c.exitCode,
    created: c.created,
    started_at: c.startedAt,
    restart_policy: c.restartPolicy,
    ports: c.ports,
    volumes: c.volumes,
    env: c.env,
    labels: c.labels,
    tags: containerTags(settings, c.labels),
    auto_restart: settings?.auto_restart == null ? defaultAutoRestart : settings.auto_restart === 1,
    desired_state: (settings?.desired_state ?? 'unspecified') as Container['desired_state'],
    web_ui_url: settings?.web_ui_url ?? null,
    auto_update_enabled: settings?.auto_update_enabled === 1,
    floating_tag_mode: (settings?.floating_tag_mode ?? 'exact') as Container['floating_tag_mode'],
    cpu_percent: live?.cpu_percent ?? null,
    memory_usage: live?.memory_usage ?? null,
    memory_limit: live?.memory_limit ?? null,
    memory_percent: live?.memory_percent ?? null,
    network_rx: live?.network_rx ?? null,
    network_tx: live?.network_tx ?? null,
    net_bytes_per_sec: live?.net_bytes_per_sec ?? null,
  };
}
