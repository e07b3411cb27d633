import { credentialsFor } from './credentials.js';
import { answerFor, policyVerdict, type OnStage, type UpdateExecution } from './execution.js';
import { pullImage } from './executor.js';
import { parseImageRef } from './registry.js';
import type { UpdatesContext } from './updates-context.js';

/** How one container's pull-and-recreate ended. */
export interface RecreateResult {
  status: 'recreated' | 'unchanged' | 'blocked' | 'failed';
  message: string;
  new_container_id: string | null;
}

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Pulls the container's own image reference and, when the pull moved it to another image,
 * recreates the container with its own configuration through the update's executor
 * (health-verified, the old one put back on failure): a compose project's pull-and-recreate.
 * An unchanged image leaves the container alone, as `docker compose up` does after a pull.
 * A policy that blocks updates blocks this too; the caller's confirmation covers a warning.
 */
export async function pullAndRecreate(
  ctx: UpdatesContext,
  execution: UpdateExecution,
  hostId: string,
  containerId: string,
  opts: { username: string; onStage?: OnStage },
): Promise<RecreateResult> {
  const failed = (message: string): RecreateResult => ({
    status: 'failed',
    message,
    new_container_id: null,
  });
  const c = ctx.find(hostId, containerId);
  const validation = await policyVerdict(ctx, c);
  if (validation?.result === 'block')
    return {
      status: 'blocked',
      message: `Blocked by policy: ${validation.reason}`,
      new_container_id: null,
    };
  const engine = ctx.r.fleet.engine(c.hostId, { purpose: 'action' });
  if (engine === null) return failed(`Host ${c.hostName} is offline`);
  const ref = parseImageRef(c.image);
  const creds = await credentialsFor(ctx.store, ctx.secrets, ref.registry);
  try {
    opts.onStage?.('pulling', 5, `Pulling image ${c.image}`);
    const auth = creds === null ? null : { ...creds, serveraddress: ref.registry };
    await pullImage(engine, c.image, auth, (p) =>
      opts.onStage?.(
        'pulling',
        5 + Math.round(p.overall_progress * 0.4),
        `Pulling image ${c.image}`,
      ),
    );
    const [pulled, current] = await Promise.all([
      engine.inspectImage(c.image),
      engine.inspectContainer(c.fullId),
    ]);
    if (pulled.Id === current.Image)
      return {
        status: 'unchanged',
        message: 'Image unchanged: not recreated',
        new_container_id: null,
      };
  } catch (err) {
    return failed(`Pull failed: ${errText(err)}`);
  }
  const done = await execution.replace(c, {
    image: c.image,
    pull: false,
    digest: null,
    username: opts.username,
    kind: 'update',
    answer: answerFor(validation),
    ...(opts.onStage === undefined ? {} : { onStage: opts.onStage }),
  });
  return done.status === 'success'
    ? {
        status: 'recreated',
        message: 'Recreated with the new image',
        new_container_id: done.new_container_id,
      }
    : failed(`${done.message}. ${done.detail ?? ''}`.trim());
}
