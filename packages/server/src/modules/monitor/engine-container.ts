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
  /** Restarts by the engine's restart policy since the container was last started by hand. */
  restartCount: number;
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
    // Engines and fakes that leave it out have restarted nothing Berth can tell.
    restartCount: Number.isFinite(info.RestartCount) ? info.RestartCount : 0,
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
