import type { ContainerDetails, Engine, ImageDetails, RegistryAuth } from '../../docker/index.js';
import { PullProgress, type LayerProgress } from './pull-progress.js';
import { buildCreateOptions } from './recreate.js';
import { isConnectionLost, restoreBackup, type Backup } from './restore.js';
import { backupName, errText } from './updates-context.js';

export type Stage =
  | 'starting'
  | 'pulling'
  | 'configuring'
  | 'backup'
  | 'creating'
  | 'starting_container'
  | 'verifying'
  | 'cleanup'
  | 'completed'
  | 'rolling_back'
  | 'rolled_back'
  | 'failed';

export interface ExecuteHooks {
  stage: (stage: Stage, progress: number, message: string) => void;
  layers: (p: LayerProgress) => void;
}

export interface ExecuteArgs {
  engine: Engine;
  /** Full id of the container to replace. */
  containerId: string;
  /** The image to run instead (`repo:tag` or an image id for Roll back). */
  image: string;
  /** Pull it first (false for Roll back to a local image). */
  pull: boolean;
  auth: RegistryAuth | null;
  healthTimeoutMs: number;
  settleMs: number;
  hooks: ExecuteHooks;
}

export type ExecuteResult =
  | { ok: true; newId: string; oldId: string; oldImageId: string; oldImage: string }
  | {
      ok: false;
      /** Shown as the failure message. */
      message: string;
      /** What happened to the container, shown as the detail. */
      detail: string;
      /** The new version was tried and proven bad (so it must not be offered again). */
      versionFailed: boolean;
      /** Ids after the attempt (the old container back under its name, normally). */
      containerId: string;
      /** The engine went away before the old container was put back: finish when it returns. */
      pending: Backup | null;
    };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pulls `image` through the engine, reporting layers; rejects with the stream's error. */
export async function pullImage(
  engine: Engine,
  image: string,
  auth: ExecuteArgs['auth'],
  onLayers: (p: LayerProgress) => void,
): Promise<void> {
  const progress = new PullProgress();
  let last = 0;
  await engine.pullImage(image, auth, (event) => {
    progress.add(event);
    const now = Date.now();
    if (now - last >= 250) {
      last = now;
      onLayers(progress.snapshot());
    }
  });
  onLayers(progress.finished());
}

/**
 * Waits until the new container proves itself: its HEALTHCHECK says healthy, or without
 * one it stays running for the settle period without restarting. Returns why not, or null.
 */
async function verify(
  engine: Engine,
  id: string,
  timeoutMs: number,
  settleMs: number,
): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  const started = Date.now();
  for (;;) {
    const info = await engine.inspectContainer(id);
    const hc = info.Config.Healthcheck;
    const hasHealth = hc?.Test !== undefined && hc.Test.length > 0 && hc.Test[0] !== 'NONE';
    if (!info.State.Running || info.State.Restarting)
      return `The new container stopped (exit code ${info.State.ExitCode})`;
    if (info.RestartCount > 0) return 'The new container restarted';
    if (hasHealth) {
      const status = info.State.Health?.Status;
      if (status === 'healthy') return null;
      if (status === 'unhealthy') {
        const log = info.State.Health?.Log.at(-1)?.Output.trim();
        return `The new container is unhealthy${log ? `: ${log.slice(0, 200)}` : ''}`;
      }
    } else if (Date.now() - started >= Math.min(settleMs, timeoutMs)) {
      return null;
    }
    if (Date.now() > deadline)
      return `The new container was not healthy within ${Math.round(timeoutMs / 1000)} s`;
    await sleep(1000);
  }
}

/**
 * Replaces a container with one of a new image and the same configuration, proving it
 * healthy before the old one goes. The old container is renamed aside (never removed)
 * until then; on any failure the new one is removed, the old one gets its name back and
 * runs again if it ran. A stopped container stays stopped (the new one is created, not
 * started). Never two containers under the name, never none.
 */
export async function executeUpdate(a: ExecuteArgs): Promise<ExecuteResult> {
  const { engine, hooks } = a;
  hooks.stage('starting', 0, 'Initializing update...');
  let old: ContainerDetails;
  try {
    old = await engine.inspectContainer(a.containerId);
  } catch (err) {
    return {
      ok: false,
      message: 'Container update failed',
      detail: `Could not read the container: ${errText(err)}`,
      versionFailed: false,
      containerId: a.containerId,
      pending: null,
    };
  }
  const name = old.Name.replace(/^\//, '');
  const wasRunning = old.State.Running || old.State.Restarting || old.State.Paused;
  const unchanged = (message: string, detail: string, versionFailed = false): ExecuteResult => ({
    ok: false,
    message,
    detail,
    versionFailed,
    containerId: old.Id,
    pending: null,
  });

  if (a.pull) {
    hooks.stage('pulling', 10, `Pulling image ${a.image}`);
    try {
      await pullImage(engine, a.image, a.auth, (p) => {
        hooks.layers(p);
        hooks.stage(
          'pulling',
          10 + Math.round(p.overall_progress * 0.4),
          `Pulling image ${a.image}`,
        );
      });
    } catch (err) {
      const why = isConnectionLost(err)
        ? `The engine stopped answering (${errText(err)})`
        : errText(err);
      return unchanged('Failed to pull the new image', `${why}. The container was not touched.`);
    }
  }
  hooks.stage('configuring', 55, 'Reading container configuration');
  let options: ReturnType<typeof buildCreateOptions>;
  try {
    const oldImage: ImageDetails | null = await engine.inspectImage(old.Image).catch(() => null);
    await engine.inspectImage(a.image);
    options = buildCreateOptions(old, oldImage, a.image);
  } catch (err) {
    return unchanged('Container update failed', `${errText(err)}. The container was not touched.`);
  }

  const since = Date.now();
  const asideName = backupName(name, since);
  let newId: string | null = null;
  let failure: unknown;
  let versionFailed = false;
  try {
    hooks.stage('backup', 60, 'Stopping container and keeping it as a backup');
    if (wasRunning) {
      if (old.State.Paused) await engine.unpauseContainer(old.Id);
      await engine.stopContainer(old.Id, { timeoutSeconds: old.Config.StopTimeout ?? 10 });
    }
    await engine.renameContainer(old.Id, asideName);
    hooks.stage('creating', 65, 'Creating new container');
    const createdId = await engine.createContainer(options.options);
    newId = createdId;
    for (const [net, settings] of options.extraNetworks) {
      await engine.connectNetwork(net, createdId, settings);
    }
    if (wasRunning) {
      hooks.stage('starting_container', 75, 'Starting new container');
      await engine.startContainer(createdId);
      hooks.stage('verifying', 85, 'Waiting for container to be healthy');
      versionFailed = true; // from here on, a failure is the new version's
      const why = await verify(engine, createdId, a.healthTimeoutMs, a.settleMs);
      if (why !== null) throw new Error(why);
    }
    hooks.stage('cleanup', 95, 'Removing backup container');
    try {
      await engine.removeContainer(old.Id);
    } catch {
      // The backup stays under its aside name; the update itself succeeded.
    }
    hooks.stage('completed', 100, `Update complete, new container: ${createdId.slice(0, 12)}`);
    return {
      ok: true,
      newId: createdId,
      oldId: old.Id,
      oldImageId: old.Image,
      oldImage: old.Config.Image,
    };
  } catch (err) {
    failure = err;
  }

  // Put the old container back exactly as it was.
  hooks.stage('rolling_back', 90, 'Update failed, restoring the previous container');
  const backup: Backup = { oldId: old.Id, name, wasRunning, image: a.image, since, newId };
  const { problems, unreachable } = await restoreBackup(engine, backup);
  hooks.stage(
    problems.length === 0 ? 'rolled_back' : 'failed',
    100,
    problems.length === 0 ? 'Update failed; previous container restored' : 'Update failed',
  );
  const lost = isConnectionLost(failure);
  return {
    ok: false,
    message: lost
      ? `Container update failed: the engine stopped answering (${errText(failure)})`
      : `Container update failed: ${errText(failure)}`,
    detail:
      problems.length === 0
        ? 'The update failed and your container has been automatically restored to its previous state.'
        : unreachable
          ? `The engine stopped answering before the previous container was restored. It is kept, never removed, and put back as it was (its name${wasRunning ? ', running' : ''}) when the host returns.`
          : `The update failed and restoring the previous container did not fully succeed (${problems.join('; ')}).`,
    versionFailed: versionFailed && !lost,
    containerId: old.Id,
    pending: unreachable ? backup : null,
  };
}
