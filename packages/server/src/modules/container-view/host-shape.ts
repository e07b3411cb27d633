import { isAgentHostUrl, type Host, type HostConnection } from '@berth/contracts';
import type { HostRow } from '../hosts/index.js';
import type { HostRuntime } from '../monitor/index.js';

/** What other modules count per host: open and snoozed alerts, updates available. */
export interface HostCounts {
  alerts: Host['alerts'];
  updates_available: number;
}

export const NO_HOST_COUNTS: HostCounts = { alerts: { open: 0, snoozed: 0 }, updates_available: 0 };

/** What the agents module knows of an agent host: its connection, and a refusal to show. */
export interface AgentHostFacts {
  connection: HostConnection;
  /** Why its agent was last refused (an incompatible protocol); null while all is well. */
  refused: string | null;
}

/**
 * Unix sockets never cross a network, so they count as secure, like TLS and https; an agent's
 * connection as it came (wss or ws), unknown before its first.
 */
function securityOf(
  url: string,
  tls: boolean,
  agent: AgentHostFacts | null,
): Host['security_status'] {
  if (isAgentHostUrl(url)) {
    const insecure = agent?.connection.agent?.insecure ?? null;
    if (insecure === null) return 'unknown';
    return insecure ? 'insecure' : 'secure';
  }
  if (tls || url.startsWith('https://') || url.startsWith('unix://')) return 'secure';
  return 'insecure';
}

function connectionOf(url: string, tls: boolean, agent: AgentHostFacts | null): HostConnection {
  if (agent !== null) return agent.connection;
  if (isAgentHostUrl(url)) return { type: 'agent', agent: null };
  if (url.startsWith('unix://')) return { type: 'socket', agent: null };
  return { type: tls || url.startsWith('https://') ? 'tls' : 'tcp', agent: null };
}

/** The API shape of a host: what is stored, what the monitor knows live, and the counts. */
export function toHost(
  row: HostRow,
  live: HostRuntime | null,
  counts: HostCounts,
  agent: AgentHostFacts | null = null,
): Host {
  const tls = row.tls_ca !== null && row.tls_cert !== null && row.tls_key !== null;
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    status: live?.status ?? 'offline',
    // An incompatible agent's refusal says more than "The agent is not connected".
    error: agent?.refused ?? live?.error ?? null,
    security_status: securityOf(row.url, tls, agent),
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
    connection: connectionOf(row.url, tls, agent),
  };
}
