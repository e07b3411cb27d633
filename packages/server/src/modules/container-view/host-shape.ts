import type { Host } from '@berth/contracts';
import type { HostRow } from '../hosts/index.js';
import type { HostRuntime } from '../monitor/index.js';

/** What other modules count per host: open and snoozed alerts, updates available. */
export interface HostCounts {
  alerts: Host['alerts'];
  updates_available: number;
}

export const NO_HOST_COUNTS: HostCounts = { alerts: { open: 0, snoozed: 0 }, updates_available: 0 };

/** Unix sockets never cross a network, so they count as secure, like TLS and https. */
function securityOf(url: string, tls: boolean): Host['security_status'] {
  if (tls || url.startsWith('https://') || url.startsWith('unix://')) return 'secure';
  return 'insecure';
}

/** The API shape of a host: what is stored, what the monitor knows live, and the counts. */
export function toHost(row: HostRow, live: HostRuntime | null, counts: HostCounts): Host {
  const tls = row.tls_ca !== null && row.tls_cert !== null && row.tls_key !== null;
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    status: live?.status ?? 'offline',
    error: live?.error ?? null,
    security_status: securityOf(row.url, tls),
    tags: JSON.parse(row.tags) as string[],
    description: row.description,
    os_version: row.os_version,
    docker_version: row.docker_version,
    num_cpus: row.num_cpus,
    total_memory: row.total_memory,
    last_checked: live?.last_checked ?? row.last_checked,
    // The stored start is only a fact of the last contact: an engine that does not answer
    // has no uptime to show.
    daemon_started_at: live?.daemon_started_at ?? null,
    uptime_source: live?.uptime_source ?? null,
    uptime_note: live?.uptime_note ?? 'Not connected to the engine yet',
    container_count: live?.container_count ?? 0,
    updates_available: counts.updates_available,
    alerts: counts.alerts,
    stats: live?.stats ?? null,
    sparklines: live?.sparklines ?? null,
    containers: live?.containers ?? { total: 0, running: 0, stopped: 0 },
  };
}
