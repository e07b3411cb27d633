import type { ContainerDetails, Engine } from '../../docker/index.js';
import { errText } from './updates-context.js';

/** What an update must undo to put the old container back. */
export interface Backup {
  /** The old container's full id. */
  oldId: string;
  /** The name it had, and must get back. */
  name: string;
  wasRunning: boolean;
  /** The image the update tried, and when it began (to know its own new container). */
  image: string;
  since: number;
  /** The new container, when its id is known. */
  newId: string | null;
}

export interface RestoreResult {
  problems: string[];
  /** The engine stopped answering: the rest can only be done when it is back. */
  unreachable: boolean;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT',
]);

/** The engine could not be reached or hung up (as opposed to answering with an error). */
export function isConnectionLost(err: unknown): boolean {
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown };
  if (typeof e.statusCode === 'number') return false;
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  return typeof e.message === 'string' && /socket hang up|ECONNREFUSED|ECONNRESET/.test(e.message);
}

const notFound = (err: unknown) => (err as { statusCode?: unknown }).statusCode === 404;

/**
 * Puts the old container back from whatever state an update left: removes the update's own
 * unproven new container, gives the old one its name back and starts it if it ran. It reads
 * the engine's state rather than trusting what the update believes it did, because a cut
 * connection can lose the answer to a call the engine carried out. Never removes the old one,
 * nor a container the update did not create.
 */
export async function restoreBackup(engine: Engine, b: Backup): Promise<RestoreResult> {
  const out: RestoreResult = { problems: [], unreachable: false };
  const { problems } = out;
  /** Notes a problem; true when the engine is gone (nothing more can be done now). */
  const fail = (what: string, err: unknown): boolean => {
    if (isConnectionLost(err)) out.unreachable = true;
    problems.push(`${what}: ${errText(err)}`);
    return out.unreachable;
  };
  if (b.newId !== null) {
    try {
      await engine.removeContainer(b.newId, { force: true });
    } catch (err) {
      if (!notFound(err)) fail('could not remove the new container', err);
    }
    if (out.unreachable) return out;
  }
  let old: ContainerDetails;
  try {
    old = await engine.inspectContainer(b.oldId);
  } catch (err) {
    fail('could not read the previous container', err);
    return out;
  }
  const current = old.Name.replace(/^\//, '');
  if (current !== b.name) {
    let free = true;
    try {
      const holder = await engine.inspectContainer(b.name);
      const ours = holder.Config.Image === b.image && Date.parse(holder.Created) >= b.since - 2000;
      if (ours) await engine.removeContainer(holder.Id, { force: true });
      else {
        free = false;
        problems.push(
          `the name ${b.name} was taken by another container (${holder.Id.slice(0, 12)}); the previous container is kept as ${current}`,
        );
      }
    } catch (err) {
      if (!notFound(err)) {
        fail(`could not free the name ${b.name}`, err);
        free = false;
      }
    }
    if (out.unreachable) return out;
    if (free) {
      try {
        await engine.renameContainer(old.Id, b.name);
      } catch (err) {
        if (fail(`could not rename ${current} back to ${b.name}`, err)) return out;
      }
    }
  }
  if (b.wasRunning && !old.State.Running) {
    try {
      await engine.startContainer(old.Id);
    } catch (err) {
      fail('could not start the previous container', err);
    }
  }
  return out;
}
