import {
  containerStateSchema,
  type ContainerState,
  type HostConnection,
  type HostStatus,
} from '@berth/contracts';
import { Family, labelSet, writeFamilies } from './exposition.js';

/** The states a host's containers are counted in, each written even at zero ('stopped' is Berth's word, never an engine's). */
const CONTAINER_STATES = containerStateSchema.options.filter((s) => s !== 'stopped');
const HEALTH_STATES = ['healthy', 'unhealthy', 'starting'] as const;
const ALERT_STATES = ['open', 'snoozed'] as const;
const ALERT_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
const COMPOSE_PROJECT = 'com.docker.compose.project';

export interface HostReading {
  id: string;
  name: string;
  status: HostStatus;
  connection: HostConnection['type'];
}

export interface ContainerReading {
  hostId: string;
  hostName: string;
  name: string;
  image: string;
  state: ContainerState;
  health: (typeof HEALTH_STATES)[number] | null;
  labels: Readonly<Record<string, string>>;
  restartCount: number;
  updateAvailable: boolean;
  /** The last stats sample of a running container; null otherwise. */
  stats: {
    cpuPercent: number;
    memoryBytes: number;
    memoryLimitBytes: number;
    rxBytes: number;
    txBytes: number;
  } | null;
}

/** Everything the fleet's series are written from, read once per scrape. */
export interface FleetReading {
  hosts: HostReading[];
  containers: ContainerReading[];
  /** Unresolved alerts per state and severity. */
  alerts: { state: string; severity: string; n: number }[];
  /** Notification outbox rows by status. */
  outbox: Record<string, number>;
  eventsStored: number;
  liveSockets: number;
}

/** `{…,name="value"}`: a written label set with one more label. */
const withLabel = (set: string, name: string, value: string) =>
  `${set.slice(0, -1)},${labelSet({ [name]: value }).slice(1)}`;

/** Berth's own state and its fleet, as exposition text. */
export function fleetExposition(r: FleetReading): string {
  return writeFamilies([...berthFamilies(r), ...hostFamilies(r), ...containerFamilies(r)]);
}

function berthFamilies(r: FleetReading): Family[] {
  const sockets = new Family('berth_live_sockets', 'gauge', 'Open live WebSocket connections.');
  sockets.add('', r.liveSockets);
  const outbox = new Family(
    'berth_notification_outbox_messages',
    'gauge',
    'Notification outbox rows by status; pending and held are the depth still to send.',
  );
  for (const status of new Set(['pending', 'held', ...Object.keys(r.outbox)]))
    outbox.add(labelSet({ status }), r.outbox[status] ?? 0);
  const events = new Family('berth_events_stored', 'gauge', 'Events held in the event log.');
  events.add('', r.eventsStored);
  const alerts = new Family('berth_alerts', 'gauge', 'Unresolved alerts by state and severity.');
  for (const state of ALERT_STATES)
    for (const severity of ALERT_SEVERITIES) {
      const n = r.alerts.find((a) => a.state === state && a.severity === severity)?.n ?? 0;
      alerts.add(labelSet({ state, severity }), n);
    }
  return [sockets, outbox, events, alerts];
}

function hostFamilies(r: FleetReading): Family[] {
  const up = new Family(
    'berth_host_up',
    'gauge',
    "1 when Berth reaches the host's engine (online or degraded), 0 otherwise.",
  );
  const info = new Family(
    'berth_host_info',
    'gauge',
    "The host's connection type (socket, tcp, tls or agent); always 1.",
  );
  const containers = new Family(
    'berth_host_containers',
    'gauge',
    "The host's containers by state.",
  );
  const counts = new Map<string, Map<string, number>>();
  for (const c of r.containers) {
    const byState = counts.get(c.hostId) ?? new Map<string, number>();
    byState.set(c.state, (byState.get(c.state) ?? 0) + 1);
    counts.set(c.hostId, byState);
  }
  for (const h of r.hosts) {
    const set = labelSet({ host: h.name });
    up.add(set, h.status === 'online' || h.status === 'degraded' ? 1 : 0);
    info.add(withLabel(set, 'connection', h.connection), 1);
    const byState = counts.get(h.id);
    // An unreachable host's containers are unknown, not zero: none are written.
    if (byState === undefined && h.status !== 'online' && h.status !== 'degraded') continue;
    for (const state of CONTAINER_STATES)
      containers.add(withLabel(set, 'state', state), byState?.get(state) ?? 0);
  }
  return [up, info, containers];
}

function containerFamilies(r: FleetReading): Family[] {
  const f = (name: string, type: 'gauge' | 'counter', help: string) => new Family(name, type, help);
  const up = f('berth_container_up', 'gauge', '1 when the container is running, 0 otherwise.');
  const cpu = f(
    'berth_container_cpu_percent',
    'gauge',
    'CPU use of a running container in percent, as Berth shows it (100 is one core).',
  );
  const mem = f(
    'berth_container_memory_usage_bytes',
    'gauge',
    'Memory used by a running container.',
  );
  const limit = f(
    'berth_container_memory_limit_bytes',
    'gauge',
    "A running container's memory limit (the host's memory when it has none).",
  );
  const rx = f('berth_container_network_receive_bytes_total', 'counter', 'Bytes received.');
  const tx = f('berth_container_network_transmit_bytes_total', 'counter', 'Bytes sent.');
  const restarts = f(
    'berth_container_restarts_total',
    'counter',
    "Restarts by the engine's restart policy; starts again at 0 when the container is started by hand.",
  );
  const health = f(
    'berth_container_health_status',
    'gauge',
    'The health check status of a container that has one: 1 for the current status, 0 for the others.',
  );
  const update = f(
    'berth_container_update_available',
    'gauge',
    "1 when a newer image was found for the container's tag, 0 otherwise.",
  );
  for (const c of r.containers) {
    const set = labelSet({
      host: c.hostName,
      container: c.name,
      image: c.image,
      compose_project: c.labels[COMPOSE_PROJECT] ?? '',
    });
    up.add(set, c.state === 'running' ? 1 : 0);
    restarts.add(set, c.restartCount);
    update.add(set, c.updateAvailable ? 1 : 0);
    if (c.health !== null)
      for (const status of HEALTH_STATES)
        health.add(withLabel(set, 'status', status), c.health === status ? 1 : 0);
    const s = c.stats;
    if (s === null) continue;
    cpu.add(set, s.cpuPercent);
    mem.add(set, s.memoryBytes);
    limit.add(set, s.memoryLimitBytes);
    rx.add(set, s.rxBytes);
    tx.add(set, s.txBytes);
  }
  return [up, cpu, mem, limit, rx, tx, restarts, health, update];
}
