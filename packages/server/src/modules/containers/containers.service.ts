import {
  containerKey,
  CONTAINER_ACTION_DONE,
  type ContainerAction,
  type ContainerActionResponse,
} from '@berth/contracts';
import { describeEngineError, type Engine } from '../../docker/index.js';
import { conflict, forbidden, HttpError, notFound } from '../../platform/http-errors.js';
import type { EventsService } from '../events/index.js';
import type { ContainerSnapshot, Fleet } from '../monitor/index.js';

/** Why an action cannot apply to the container's current state, if it cannot. */
function refusal(action: ContainerAction, c: ContainerSnapshot): string | null {
  const running = c.state === 'running' || c.state === 'restarting';
  if (action === 'start' && running) return 'Container is already running';
  if (action === 'start' && c.state === 'paused') return 'Container is paused; unpause it instead';
  if (action === 'stop' && !running && c.state !== 'paused') return 'Container is already stopped';
  if (action === 'pause' && c.state === 'paused') return 'Container is already paused';
  if (action === 'pause' && !running) return 'Container is not running';
  if (action === 'unpause' && c.state !== 'paused') return 'Container is not paused';
  return null;
}

function perform(engine: Engine, fullId: string, action: ContainerAction): Promise<void> {
  switch (action) {
    case 'start':
      return engine.startContainer(fullId);
    // No timeout: the engine waits the container's own stop timeout, as `docker stop` does.
    case 'stop':
      return engine.stopContainer(fullId);
    case 'restart':
      return engine.restartContainer(fullId);
    case 'pause':
      return engine.pauseContainer(fullId);
    case 'unpause':
      return engine.unpauseContainer(fullId);
    case 'remove':
      return engine.removeContainer(fullId, { force: true });
  }
}

/** Whether an update is replacing the named container (or the backup so named) right now. */
export type UpdatingQuery = (hostId: string, containerName: string) => boolean;

/** Container listing and actions on the real engines. */
export class ContainersService {
  constructor(
    private readonly fleet: Fleet,
    private readonly events: EventsService,
    private readonly updating: UpdatingQuery = () => false,
  ) {}

  /** Runs the action on the engine, records who did it, and pushes the change at once. */
  async act(
    hostId: string,
    containerId: string,
    action: ContainerAction,
    username: string,
  ): Promise<ContainerActionResponse> {
    const host = this.fleet.host(hostId);
    if (host === undefined) throw notFound('Host not found');
    const engine = this.fleet.engine(hostId, { purpose: 'action' });
    if (engine === null) throw conflict(`Host ${host.name} is offline`);
    const c = this.fleet.container(hostId, containerId);
    if (c === undefined) throw notFound('Container not found');
    // The update owns the container and its backup until it ends: a start of the stopped
    // backup, or a stop of the new container, would undo the update or its rollback.
    if (this.updating(hostId, c.name))
      throw conflict('Container is being updated; try again when the update has finished');
    const why = refusal(action, c);
    if (why !== null) throw conflict(why);
    try {
      await perform(engine, c.fullId, action);
    } catch (err) {
      throw engineFailure(err, action, host.name);
    }
    // A removed container is gone from the picture after the refresh.
    const after = await this.fleet.refresh(hostId, c.fullId);
    await this.events.record({
      severity: 'info',
      category: 'container',
      event_type: 'action_taken',
      title: `Container ${CONTAINER_ACTION_DONE[action]} by ${username}: ${c.name}`,
      message: `Action: ${action}`,
      host_id: c.hostId,
      host_name: c.hostName,
      container_id: containerKey(c.hostId, c.id),
      container_name: c.name,
      old_state: c.state,
      new_state: after?.state ?? (action === 'remove' ? 'removed' : null),
      triggered_by: username,
    });
    this.fleet.changed();
    return { status: 'success', action, state: after?.state ?? null };
  }
}

/** Engine answers become 4xx with the engine's reason; nothing here is a server fault. */
function engineFailure(err: unknown, action: ContainerAction, hostName: string): HttpError {
  const status = (err as { statusCode?: unknown }).statusCode;
  if (status === 404) return notFound('Container not found');
  if (status === 304)
    return conflict(
      action === 'start' ? 'Container is already running' : 'Container is already stopped',
    );
  const reason = (err as { json?: { message?: unknown } }).json?.message;
  // A read-only agent (or an authorization plugin) refuses the action: a 403 with its words.
  if (status === 403 && typeof reason === 'string') return forbidden(reason);
  if (typeof reason === 'string')
    return conflict(`Engine refused to ${action} the container: ${reason}`);
  return conflict(
    `Failed to ${action} container on ${hostName}: ${describeEngineError(err, hostName)}`,
  );
}
