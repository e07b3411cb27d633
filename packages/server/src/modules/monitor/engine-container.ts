import type { ContainerState } from '@berth/contracts';
import type { ContainerDetails } from '../../docker/index.js';

/** What the monitor knows of one container, from `inspect` and the event stream. */
export interface EngineContainer {
  fullId: string;
  /** 12-character short id: the id the API and the UI use. */
  id: string;
  name: string;
  image: string;
  state: ContainerState;
  health: 'healthy' | 'unhealthy' | 'starting' | null;
  exitCode: number | null;
  created: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  restartPolicy: string | null;
  /** The signal a stop sends first, when the image or the run names one (else SIGTERM). */
  stopSignal: string | null;
  /** Removed by the engine once it exits (`--rm`). */
  autoRemove: boolean;
  ports: string[];
  volumes: string[];
  env: Record<string, string>;
  labels: Record<string, string>;
  /** Init process in the engine's PID namespace; 0 when not running. */
  pid: number;
}

const ENGINE_STATES: readonly string[] = [
  'running',
  'paused',
  'restarting',
  'exited',
  'dead',
  'created',
  'removing',
];
const ZERO_TIME = '0001-01-01T00:00:00Z';

const time = (t: string | undefined) =>
  t === undefined || t === '' || t.startsWith('0001-') ? null : t;

/** Maps an inspect answer onto the monitor's model. */
export function fromInspect(info: ContainerDetails): EngineContainer {
  const status = info.State.Status;
  const health = info.State.Health?.Status;
  return {
    fullId: info.Id,
    id: info.Id.slice(0, 12),
    name: info.Name.replace(/^\//, ''),
    image: info.Config.Image,
    state: (ENGINE_STATES.includes(status) ? status : 'dead') as ContainerState,
    health: health === 'healthy' || health === 'unhealthy' || health === 'starting' ? health : null,
    exitCode: status === 'running' ? null : info.State.ExitCode,
    created: time(info.Created),
    startedAt: time(info.State.StartedAt === ZERO_TIME ? undefined : info.State.StartedAt),
    finishedAt: time(info.State.FinishedAt),
    restartPolicy: info.HostConfig.RestartPolicy?.Name || 'no',
    stopSignal: stopSignalOf(info),
    autoRemove: info.HostConfig.AutoRemove === true,
    ports: portsOf(info),
    volumes: info.Mounts.map((m) => `${m.Type === 'volume' ? m.Name : m.Source}:${m.Destination}`),
    env: envOf(info.Config.Env),
    labels: labelsOf(info.Config.Labels),
    pid: info.State.Pid,
  };
}

/** Set only when the image or the run names one. */
function stopSignalOf(info: ContainerDetails): string | null {
  const signal = info.Config.StopSignal;
  return typeof signal === 'string' && signal !== '' ? signal : null;
}

/** Images without labels report null. */
function labelsOf(labels: Record<string, string> | null | undefined): Record<string, string> {
  return labels ?? {};
}

function portsOf(info: ContainerDetails): string[] {
  const ports: string[] = [];
  for (const [containerPort, hostBindings] of Object.entries(info.NetworkSettings.Ports)) {
    if (hostBindings === null || hostBindings.length === 0) {
      ports.push(containerPort);
      continue;
    }
    for (const b of hostBindings) {
      const ip = b.HostIp && b.HostIp !== '0.0.0.0' && b.HostIp !== '::' ? `${b.HostIp}:` : '';
      ports.push(`${ip}${b.HostPort}:${containerPort}`);
    }
  }
  return [...new Set(ports)].sort();
}

function envOf(env: string[] | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of env ?? []) {
    const eq = entry.indexOf('=');
    if (eq > 0) out[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return out;
}

/** Docker-style status text ("Up 5 minutes (healthy)", "Exited (1) 2 hours ago"), computed now. */
export function statusText(c: EngineContainer, now = Date.now()): string {
  const since = (iso: string | null) => (iso === null ? '' : humanDuration(now - Date.parse(iso)));
  const health =
    c.health === null ? '' : ` (${c.health === 'starting' ? 'health: starting' : c.health})`;
  switch (c.state) {
    case 'running':
      return `Up ${since(c.startedAt)}${health}`;
    case 'paused':
      return `Up ${since(c.startedAt)} (Paused)`;
    case 'restarting':
      return `Restarting (${c.exitCode ?? 0}) ${since(c.finishedAt)} ago`;
    case 'exited':
    case 'stopped':
      return c.finishedAt === null
        ? `Exited (${c.exitCode ?? 0})`
        : `Exited (${c.exitCode ?? 0}) ${since(c.finishedAt)} ago`;
    case 'created':
      return 'Created';
    case 'removing':
      return 'Removal In Progress';
    case 'dead':
      return 'Dead';
  }
}

/** "Less than a second", "5 seconds", "3 minutes", "2 hours", "4 days" as docker writes them. */
export function humanDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 1) return 'Less than a second';
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.floor(s / 60);
  if (m < 60) return m === 1 ? 'About a minute' : `${m} minutes`;
  const h = Math.floor(m / 60);
  if (h < 48) return h === 1 ? 'About an hour' : `${h} hours`;
  const d = Math.floor(h / 24);
  if (d < 14) return `${d} days`;
  if (d < 60) return `${Math.floor(d / 7)} weeks`;
  return `${Math.floor(d / 30)} months`;
}

/** `compose:<project>` and `swarm:<service>` from labels. */
export function derivedTags(labels: Record<string, string>): string[] {
  const tags: string[] = [];
  const project = labels['com.docker.compose.project'];
  const service = labels['com.docker.swarm.service.name'];
  if (project) tags.push(`compose:${project.toLowerCase()}`);
  if (service) tags.push(`swarm:${service.toLowerCase()}`);
  return tags;
}
