import type { Container } from '@berth/contracts';
import type { Fleet } from '../../monitor/index.js';

/** Exit code of a process ended by SIGKILL (128 + 9): what `docker kill` leaves. */
const SIGKILL_EXIT = 137;
const KILL_SIGNALS = new Set(['9', 'KILL', 'SIGKILL']);

/** What the decision reads of the container the engine reports now. */
export interface FreshLook {
  /** The engine's status: 'exited', or 'removing' / 'dead' / gone while a removal runs. */
  status: string | null;
  autoRemove: boolean;
  stopSignal: string | null;
}

/**
 * Whether a die can be called "not asked for" at once, without waiting for the `stop` event
 * a user's stop sends after the die. A user's stop (the CLI, Berth, compose, an update)
 * always begins with a `kill` event carrying the container's stop signal; the monitor does
 * not pass the signal on, so the decision reads what it can:
 * - no `kill` before the die: the process ended on its own (crash, exit, OOM);
 * - exactly one `kill` and exit code 137: a SIGKILL that no stop signal preceded — a
 *   `docker kill` — unless the container's own stop signal is SIGKILL (then a stop looks
 *   the same until its `stop` event).
 * Everything else waits as before: two kills (a stop that timed out), a kill with another
 * exit code (a graceful stop), a container the engine restarts itself (restart policy),
 * one being removed (`rm -f`, `--rm`) or already running again.
 */
export function clearlyUnasked(killsBefore: number, info: Container, look: FreshLook): boolean {
  if (info.restart_policy !== null && info.restart_policy !== '' && info.restart_policy !== 'no')
    return false;
  if (look.status !== 'exited' || look.autoRemove) return false;
  if (killsBefore === 0) return true;
  if (killsBefore !== 1 || info.exit_code !== SIGKILL_EXIT) return false;
  return look.stopSignal === null || !KILL_SIGNALS.has(look.stopSignal.toUpperCase());
}

/** One inspect of the container as the engine has it now; null when it is gone or unreachable. */
export async function lookAgain(
  fleet: Fleet,
  hostId: string,
  containerId: string,
): Promise<FreshLook | null> {
  const docker = fleet.engine(hostId, { purpose: 'query' });
  if (docker === null) return null;
  try {
    const i = await docker.getContainer(containerId).inspect();
    // Set only when the image or the run names one; the typings leave it out.
    const signal = (i.Config as { StopSignal?: string }).StopSignal;
    return {
      status: i.State.Status,
      autoRemove: i.HostConfig.AutoRemove === true,
      stopSignal: typeof signal === 'string' && signal !== '' ? signal : null,
    };
  } catch {
    return null; // removed meanwhile (`rm -f`, `--rm`): a removal is asked for
  }
}
