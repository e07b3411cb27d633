import { constants } from 'node:os';
import type { ContainerSnapshot, Fleet } from '../../monitor/index.js';

/** Exit code of a process ended by SIGKILL (128 + 9): what `docker kill` leaves. */
const SIGKILL_EXIT = 137;
const SIGKILL = 9;
/** What the engine sends first on a stop when neither the image nor the run names a signal. */
const SIGTERM = 15;

/** What the decision reads of the container as its die left it (the monitor inspected it). */
export type DyingContainer = Pick<
  ContainerSnapshot,
  'stopSignal' | 'autoRemove' | 'exitCode' | 'restartPolicy'
>;

/**
 * Why a container died, as far as its events tell:
 * - `asked`: someone stopped or restarted it (Berth's buttons, the CLI, compose, a health
 *   check's restart, an update);
 * - `unasked`: nobody did (a crash, an exit of its own, the OOM killer);
 * - `killed`: a `docker kill`, unless the engine is removing the container (`rm -f` sends
 *   the same SIGKILL): one look at the engine tells;
 * - `unsure`: the `stop` event a user's stop sends after the die, or the engine restarting
 *   or removing the container, settles it a moment later.
 */
export type DieIntent = 'asked' | 'unasked' | 'killed' | 'unsure';

/** A signal as a number, from any spelling the engine or a run uses ('15', 'TERM', 'SIGTERM'). */
export function signalNumber(signal: string | null): number | null {
  if (signal === null || signal.trim() === '') return null;
  const s = signal.trim().toUpperCase();
  if (/^\d+$/.test(s)) return Number(s);
  const named = (constants.signals as Record<string, number | undefined>)[
    s.startsWith('SIG') ? s : `SIG${s}`
  ];
  return named ?? null;
}

/**
 * Decides a die from the signals of the `kill` events since the container last started, in
 * order. A stop or restart, whoever asks for it and however long the process takes to go
 * (an image that ignores SIGTERM is killed when the stop timeout ends), always begins with a
 * kill carrying the container's stop signal; a `docker kill` sends one SIGKILL and nothing
 * before it; a process that ends on its own has no kill. A container whose stop signal is
 * SIGKILL cannot be told from a `docker kill` until its `stop` event; one the engine
 * restarts or removes itself waits to see what remains.
 */
export function dieIntent(kills: readonly (string | null)[], c: DyingContainer): DieIntent {
  const stopSignal = signalNumber(c.stopSignal) ?? SIGTERM;
  const first = kills.length === 0 ? null : signalNumber(kills[0] ?? null);
  if (stopSignal !== SIGKILL && first === stopSignal) return 'asked';
  if ((c.restartPolicy ?? 'no') !== 'no' || c.autoRemove) return 'unsure';
  if (kills.length === 0) return 'unasked';
  const oneKill = kills.length === 1 && first === SIGKILL && c.exitCode === SIGKILL_EXIT;
  return oneKill && stopSignal !== SIGKILL ? 'killed' : 'unsure';
}

/**
 * The container's status as the engine has it now: 'exited' after a `docker kill`,
 * 'removing' or 'dead' during an `rm -f`, 'gone' after it; null when the engine cannot say.
 */
export async function statusNow(
  fleet: Fleet,
  hostId: string,
  containerId: string,
): Promise<string | null> {
  const engine = fleet.engine(hostId, { purpose: 'query' });
  if (engine === null) return null;
  try {
    return (await engine.inspectContainer(containerId)).State.Status;
  } catch (err) {
    return (err as { statusCode?: number }).statusCode === 404 ? 'gone' : null;
  }
}
