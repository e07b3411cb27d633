import { randomUUID } from 'node:crypto';
import {
  containerKey,
  containerNameKey,
  type ExecuteUpdateResponse,
  type UpdatePolicyValue,
  type UpdateValidation,
} from '@berth/contracts';
import { conflict } from '../../platform/http-errors.js';
import type { ContainerSnapshot } from '../monitor/index.js';
import type { UpdateChecks } from './checks.js';
import { credentialsFor } from './credentials.js';
import { executeUpdate, type ExecuteResult } from './executor.js';
import { validateUpdate } from './policies.js';
import type { InterruptedUpdates } from './recovery.js';
import { parseImageRef } from './registry.js';
import type { UpdatesContext } from './updates-context.js';

export type Answer = (
  s: ExecuteUpdateResponse['status'],
  m: string,
  d: string | null,
  id?: string | null,
) => ExecuteUpdateResponse;

/** The answers of an update gated by `validation` (none: allowed), which each answer carries. */
export const answerFor =
  (validation: UpdateValidation | null): Answer =>
  (status, message, detail, newId = null) => ({
    status,
    validation: validation?.result ?? 'allow',
    reason: validation?.reason ?? null,
    matched_pattern: validation?.matched_pattern ?? null,
    message,
    detail,
    new_container_id: newId,
  });

/** The update policy's verdict on a container: its own policy, its labels, the name patterns. */
export async function policyVerdict(
  ctx: UpdatesContext,
  c: ContainerSnapshot,
): Promise<UpdateValidation | null> {
  const [config, patterns] = await Promise.all([
    ctx.store.getConfig(c.hostId, c.name),
    ctx.store.policies(),
  ]);
  return validateUpdate({
    name: c.name,
    image: c.image,
    labels: c.labels,
    policy: (config?.update_policy ?? null) as UpdatePolicyValue | null,
    patterns,
  });
}

/** Each stage as it happens (the batch panel shows it per item). */
export type OnStage = (stage: string, progress: number, message: string) => void;

/**
 * Applying updates and Roll back: policy gate, then the executor (pull, recreate, prove
 * healthy, or put the old container back) with live progress, events, alerts and the record.
 */
export class UpdateExecution {
  constructor(
    private readonly ctx: UpdatesContext,
    private readonly checks: UpdateChecks,
    private readonly interrupted: InterruptedUpdates,
  ) {}

  async execute(
    hostId: string,
    containerId: string,
    opts: { force: boolean; username: string; auto?: boolean; onStage?: OnStage },
  ): Promise<ExecuteUpdateResponse> {
    const c = this.ctx.find(hostId, containerId);
    const store = this.ctx.store;
    const validation = await policyVerdict(this.ctx, c);
    const answer = answerFor(validation);
    if (validation?.result === 'block')
      return answer('blocked', 'Update blocked by policy', validation.reason);
    if (validation?.result === 'warn' && (!opts.force || opts.auto === true))
      return answer('requires_confirmation', 'This update needs confirmation', validation.reason);

    let row = await store.get(c.hostId, c.name);
    if (row?.update_available !== 1 || row.image !== c.image) {
      await this.checks.checkOne(c.hostId, c.id);
      row = await store.get(c.hostId, c.name);
    }
    if (row?.update_available !== 1 || row.latest_image === null)
      throw conflict('No update available for this container');
    return this.replace(c, {
      image: row.latest_image,
      pull: true,
      digest: row.latest_digest,
      username: opts.username,
      kind: 'update',
      answer,
      ...(opts.onStage === undefined ? {} : { onStage: opts.onStage }),
    });
  }

  /** Back to the image the last update replaced (kept on the engine for this). */
  async rollback(
    hostId: string,
    containerId: string,
    username: string,
  ): Promise<ExecuteUpdateResponse> {
    const c = this.ctx.find(hostId, containerId);
    const row = await this.ctx.store.get(c.hostId, c.name);
    if (row?.previous_image_id === null || row?.previous_image_id === undefined)
      throw conflict('No previous version to roll back to');
    const image = row.previous_image ?? row.previous_image_id;
    const answer = answerFor(null);
    const engine = this.ctx.r.fleet.engine(c.hostId, { purpose: 'action' });
    // The tag may have moved since; run the exact image kept, then name it as before.
    if (engine !== null && row.previous_image !== null) {
      await engine
        .tagImage(row.previous_image_id, tagParts(row.previous_image))
        .catch(() => undefined);
    }
    return this.replace(c, {
      image,
      pull: false,
      digest: null,
      username,
      kind: 'rollback',
      answer,
    });
  }

  /** Replaces the container (an update, a rollback, or pull-recreate.ts's recreate). */
  async replace(
    c: ContainerSnapshot,
    job: {
      image: string;
      pull: boolean;
      digest: string | null;
      username: string;
      kind: 'update' | 'rollback';
      onStage?: OnStage;
      answer: Answer;
    },
  ): Promise<ExecuteUpdateResponse> {
    const r = this.ctx.r;
    const key = containerNameKey(c.hostId, c.name);
    if (this.ctx.updating.has(key))
      throw conflict('An update of this container is already running');
    const engine = r.fleet.engine(c.hostId, { purpose: 'action' });
    if (engine === null) throw conflict(`Host ${c.hostName} is offline`);
    this.ctx.updating.add(key);
    this.setUpdating(c, true);
    const correlation = randomUUID();
    const ref = parseImageRef(job.image);
    const creds = job.pull
      ? await credentialsFor(this.ctx.store, this.ctx.secrets, ref.registry)
      : null;
    const publishStage = (stage: string, progress: number, message: string) => {
      job.onStage?.(stage, progress, message);
      r.hub.publish({
        type: 'container_update_progress',
        data: { host_id: c.hostId, container_id: c.id, stage, progress, message },
      });
    };
    let result: ExecuteResult;
    try {
      await this.event(c, 'info', `${job.kind}_started`, `Updating ${c.name} to ${job.image}`, {
        message: null,
        correlation,
        username: job.username,
      });
      result = await executeUpdate({
        engine,
        containerId: c.fullId,
        image: job.image,
        pull: job.pull,
        auth: creds === null ? null : { ...creds, serveraddress: ref.registry },
        healthTimeoutMs: r.settings.get().health_check_timeout_seconds * 1000,
        settleMs: this.ctx.settleMs,
        hooks: {
          stage: (stage, progress, message) =>
            publishStage(stage === 'starting_container' ? 'starting' : stage, progress, message),
          layers: (p) =>
            r.hub.publish({
              type: 'container_update_layer_progress',
              data: { host_id: c.hostId, container_id: c.id, ...p },
            }),
        },
      });
    } finally {
      this.ctx.updating.delete(key);
      this.setUpdating(c, false);
    }
    if (result.ok) return this.succeeded(c, job, result, correlation);

    if (result.pending !== null) this.interrupted.remember(c.hostId, result.pending);
    await r.fleet.refresh(c.hostId, result.containerId).catch(() => null);
    if (result.versionFailed && job.kind === 'update') {
      await this.ctx.store.patch(c.hostId, c.name, {
        failed_digest: job.digest,
        update_available: 0,
        last_error: result.message,
      });
    }
    await this.event(
      c,
      'error',
      job.kind === 'update' ? 'update_failed' : 'rollback_failed',
      `Update of ${c.name} to ${job.image} failed`,
      { message: `${result.message}. ${result.detail}`, correlation, username: job.username },
    );
    await this.signal(c, 'update_failed', true, `${result.message}. ${result.detail}`);
    r.fleet.changed();
    return job.answer('failed', result.message, result.detail);
  }

  private async succeeded(
    c: ContainerSnapshot,
    job: { image: string; digest: string | null; username: string; kind: string; answer: Answer },
    result: Extract<ExecuteResult, { ok: true }>,
    correlation: string,
  ): Promise<ExecuteUpdateResponse> {
    const r = this.ctx.r;
    const newShort = result.newId.slice(0, 12);
    await r.fleet.refresh(c.hostId, result.newId).catch(() => null);
    const row = await this.ctx.store.get(c.hostId, c.name);
    await this.ctx.store.save({
      host_id: c.hostId,
      container_name: c.name,
      container_id: newShort,
      image: job.image,
      current_digest: job.digest ?? row?.current_digest ?? null,
      latest_digest: job.digest ?? row?.latest_digest ?? null,
      latest_image: job.image,
      update_available: 0,
      checked_at: new Date().toISOString(),
      last_error: null,
      failed_digest: null,
      previous_image: result.oldImage,
      previous_image_id: result.oldImageId,
    });
    // Only now: a dialog that follows the new container asks for its update status at once,
    // and must not read the row from before the update ("Update Available").
    r.hub.publish({
      type: 'container_recreated',
      data: {
        host_id: c.hostId,
        old_composite_key: containerKey(c.hostId, c.id),
        new_composite_key: containerKey(c.hostId, newShort),
        container_name: c.name,
      },
    });
    await this.event(
      c,
      'info',
      job.kind === 'update' ? 'update_completed' : 'rollback_completed',
      job.kind === 'update'
        ? `Container ${c.name} updated to ${job.image}`
        : `Container ${c.name} rolled back to ${job.image}`,
      {
        message: `${c.image} → ${job.image}; new container ${newShort}`,
        correlation,
        username: job.username,
        containerId: newShort,
      },
    );
    await this.signal(c, 'update_available', false, 'Updated');
    await this.signal(c, 'update_failed', false, 'Updated');
    await this.signal(c, 'update_completed', true, `Updated to ${job.image}`);
    r.fleet.changed();
    return job.answer('success', 'Container updated successfully', null, newShort);
  }

  private setUpdating(c: ContainerSnapshot, updating: boolean) {
    for (const l of this.ctx.r.onUpdating ?? []) {
      try {
        l(c.hostId, c.name, updating);
      } catch (err) {
        this.ctx.r.log.warn({ err }, 'an updating listener failed');
      }
    }
  }

  private async signal(
    c: ContainerSnapshot,
    kind: 'update_available' | 'update_completed' | 'update_failed',
    active: boolean,
    message: string,
  ) {
    await this.ctx.r.alerts
      ?.signal({ kind, hostId: c.hostId, containerName: c.name, active, message })
      .catch((err: unknown) => this.ctx.r.log.warn({ err, kind }, 'update alert failed'));
  }

  private async event(
    c: ContainerSnapshot,
    severity: 'info' | 'error',
    type: string,
    title: string,
    e: { message: string | null; correlation: string; username: string; containerId?: string },
  ) {
    await this.ctx.r
      .record({
        severity,
        category: 'container',
        event_type: type,
        title,
        message: e.message,
        host_id: c.hostId,
        host_name: c.hostName,
        container_id: containerKey(c.hostId, e.containerId ?? c.id),
        container_name: c.name,
        correlation_id: e.correlation,
        triggered_by: e.username,
      })
      .catch((err: unknown) => this.ctx.r.log.warn({ err }, 'recording an update event failed'));
  }
}

/** `repo:tag` → { repo, tag } for `image.tag()`. */
function tagParts(ref: string): { repo: string; tag: string } {
  const colon = ref.lastIndexOf(':');
  if (colon > ref.lastIndexOf('/')) return { repo: ref.slice(0, colon), tag: ref.slice(colon + 1) };
  return { repo: ref, tag: 'latest' };
}
