import type { ContainerState, EventSeverity } from '@berth/contracts';
import type { EngineEvent } from '../../docker/index.js';

// The stream and its line parsing (with the line cap) live in docker/; this file says what
// an event means to the monitor.
export { EventLineParser, type EngineEvent } from '../../docker/index.js';

/** The container actions Berth follows; exec_* probes and the like are filtered out at the engine. */
export const FOLLOWED_ACTIONS = [
  'create',
  'start',
  'stop',
  'die',
  'kill',
  'oom',
  'restart',
  'pause',
  'unpause',
  'destroy',
  'rename',
  'health_status',
] as const;

/** What an engine event means for the log: severity, type and title. */
export interface EventMeaning {
  severity: EventSeverity;
  event_type: string;
  title: string;
  message: string | null;
  /** The state the container is in after the event, when the event decides it. */
  newState: ContainerState | null;
}

/** Maps an engine action onto an entry of the event log. */
export function describeEngineEvent(ev: EngineEvent, name: string): EventMeaning | null {
  const attrs = ev.Actor.Attributes;
  const action = ev.Action.startsWith('health_status') ? 'health_status' : ev.Action;
  switch (action) {
    case 'create':
      return meaning('info', 'created', `Container Created: ${name}`, null, 'created');
    case 'start':
      return meaning('info', 'started', `Container Started: ${name}`, null, 'running');
    case 'restart':
      return meaning('info', 'restarted', `Container Restarted: ${name}`, null, 'running');
    case 'stop':
      return meaning('info', 'stopped', `Container Stopped: ${name}`, null, null);
    case 'kill':
      return meaning(
        'info',
        'killed',
        `Container Killed: ${name}`,
        `Signal ${attrs.signal ?? 'unknown'}`,
        null,
      );
    case 'die': {
      const code = Number(attrs.exitCode ?? 0);
      return code === 0
        ? meaning('info', 'died', `Container Exited: ${name}`, 'Exit code 0', 'exited')
        : meaning('error', 'died', `Container Died: ${name}`, `Exit code ${code}`, 'exited');
    }
    case 'oom':
      return meaning(
        'error',
        'oom',
        `Container Out of Memory: ${name}`,
        'Killed by the kernel OOM killer',
        null,
      );
    case 'pause':
      return meaning('info', 'paused', `Container Paused: ${name}`, null, 'paused');
    case 'unpause':
      return meaning('info', 'unpaused', `Container Unpaused: ${name}`, null, 'running');
    case 'destroy':
      return meaning('info', 'removed', `Container Removed: ${name}`, null, null);
    case 'rename':
      return meaning(
        'info',
        'renamed',
        `Container Renamed: ${name}`,
        `Formerly ${(attrs.oldName ?? '').replace(/^\//, '')}`,
        null,
      );
    case 'health_status': {
      const health = ev.Action.split(': ')[1] ?? 'unknown';
      const severity: EventSeverity = health === 'unhealthy' ? 'warning' : 'info';
      return meaning(
        severity,
        'health_status',
        `Container ${capitalise(health)}: ${name}`,
        `Health check is ${health}`,
        null,
      );
    }
    default:
      return null;
  }
}

function meaning(
  severity: EventSeverity,
  event_type: string,
  title: string,
  message: string | null,
  newState: ContainerState | null,
): EventMeaning {
  return { severity, event_type, title, message, newState };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
