import { containerKey, type CheckAllResponse } from '@berth/contracts';
import type { Engine } from '../../docker/index.js';
import { conflict } from '../../platform/http-errors.js';
import type { ContainerSnapshot } from '../monitor/index.js';
import type { CheckOutcome, CheckRun } from './update-check.js';
import { COMPOSE_LABEL, errText, type ImageCheck, type UpdatesContext } from './updates-context.js';
import type { UpdateRow } from './updates.store.js';

const CHECK_CONCURRENCY = 8;

/** Finding updates: one container, or all of them in one run (registry answers cached). */
export class UpdateChecks {
  /** Last check-all result, for tests and the bench. */
  lastRun: { requests: number; ms: number } | null = null;

  constructor(private readonly ctx: UpdatesContext) {}

  /** Checks one container and records the result. Throws when the check cannot be made. */
  async check(
    c: ContainerSnapshot,
    engine: Engine | null,
    run = this.ctx.newRun(),
  ): Promise<ImageCheck> {
    const outcome = await this.checkOutcome(c, engine, run);
    if (outcome.kind === 'error') throw conflict(`Could not check ${c.image}: ${outcome.message}`);
    if (outcome.kind === 'local') return { kind: 'local' };
    return {
      kind: 'checked',
      updateAvailable: outcome.updateAvailable,
      currentDigest: outcome.currentDigest,
      latestDigest: outcome.latestDigest,
    };
  }

  /** Checks the container now; answers it (the caller shows its status). */
  async checkOne(hostId: string, containerId: string): Promise<ContainerSnapshot> {
    const c = this.ctx.find(hostId, containerId);
    const outcome = await this.checkOutcome(
      c,
      this.ctx.r.fleet.engine(c.hostId, { purpose: 'query' }),
      this.ctx.newRun(),
    );
    if (outcome.kind === 'error') throw conflict(`Could not check ${c.image}: ${outcome.message}`);
    return c;
  }

  /** Checks every container (the daily run skips compose ones when the setting says so). */
  /** `reaches`: the hosts whose containers are checked (a scoped caller's); every host without. */
  async checkAll(
    opts: { scheduled?: boolean; reaches?: (hostId: string) => boolean } = {},
  ): Promise<CheckAllResponse> {
    const r = this.ctx.r;
    const started = Date.now();
    const skipCompose = opts.scheduled === true && r.settings.get().skip_compose_containers;
    const all = r.fleet
      .containers()
      .filter((c) => !(skipCompose && c.labels[COMPOSE_LABEL] !== undefined))
      .filter((c) => opts.reaches?.(c.hostId) ?? true);
    const run = this.ctx.newRun(opts.scheduled === true ? 'scheduled' : 'manual');
    const errors: string[] = [];
    let checked = 0;
    let found = 0;
    let next = 0;
    const lane = async () => {
      while (next < all.length) {
        const c = all[next++];
        if (c === undefined) break;
        const outcome = await this.checkOutcome(
          c,
          r.fleet.engine(c.hostId, { purpose: 'query' }),
          run,
        );
        if (outcome.kind === 'error') errors.push(`${c.hostName}/${c.name}: ${outcome.message}`);
        else checked++;
        if (outcome.kind === 'checked' && outcome.updateAvailable) found++;
      }
    };
    await Promise.all(Array.from({ length: CHECK_CONCURRENCY }, lane));
    this.lastRun = { requests: run.requests, ms: Date.now() - started };
    r.fleet.changed();
    return { checked, total: all.length, updates_found: found, errors };
  }

  private async checkOutcome(
    c: ContainerSnapshot,
    engine: Engine | null,
    run: CheckRun,
  ): Promise<CheckOutcome> {
    if (engine === null) return { kind: 'error', message: `Host ${c.hostName} is offline` };
    const store = this.ctx.store;
    const row = await store.get(c.hostId, c.name);
    let outcome: CheckOutcome;
    try {
      const { imageRef, imageId } = await run.containerImage(engine, c.fullId);
      outcome = await run.check({
        engine,
        imageRef,
        imageId,
        repoDigests: await run.repoDigests(engine, imageId),
        mode: this.ctx.modeOf(c),
        failedDigest: row?.failed_digest ?? null,
      });
    } catch (err) {
      outcome = { kind: 'error', message: errText(err) };
    }
    const now = new Date().toISOString();
    const base = {
      host_id: c.hostId,
      container_name: c.name,
      container_id: c.id,
      image: c.image,
      checked_at: now,
    };
    if (outcome.kind === 'checked') {
      await store.save({
        ...base,
        current_digest: outcome.currentDigest,
        latest_digest: outcome.latestDigest,
        latest_image: outcome.latestImage,
        update_available: outcome.updateAvailable ? 1 : 0,
        last_error: null,
      });
      await this.alertAvailable(c, row, outcome, run.trigger);
    } else if (outcome.kind === 'local') {
      await store.save({
        ...base,
        current_digest: null,
        latest_digest: null,
        latest_image: null,
        update_available: 0,
        last_error: outcome.reason,
      });
    } else {
      // A registry that is down changes nothing but the error shown.
      await store.save({
        ...base,
        current_digest: row?.current_digest ?? null,
        latest_digest: row?.latest_digest ?? null,
        update_available: row?.update_available ?? 0,
        last_error: outcome.message,
      });
    }
    return outcome;
  }

  /** update_available once per new version, not once per check. */
  private async alertAvailable(
    c: ContainerSnapshot,
    row: UpdateRow | undefined,
    outcome: Extract<CheckOutcome, { kind: 'checked' }>,
    trigger: CheckRun['trigger'],
  ): Promise<void> {
    const r = this.ctx.r;
    if (!outcome.updateAvailable || row?.alerted_digest === outcome.latestDigest) return;
    await this.ctx.store.patch(c.hostId, c.name, { alerted_digest: outcome.latestDigest });
    await r.record({
      severity: 'info',
      category: 'container',
      event_type: 'update_available',
      title: `Update available for ${c.name}: ${outcome.latestImage}`,
      message: `${c.image} → ${outcome.latestImage} (${outcome.latestDigest.slice(0, 19)})`,
      host_id: c.hostId,
      host_name: c.hostName,
      container_id: containerKey(c.hostId, c.id),
      container_name: c.name,
      triggered_by: 'system',
    });
    await r.alerts
      ?.signal({
        kind: 'update_available',
        hostId: c.hostId,
        containerName: c.name,
        active: true,
        message: `Update available: ${outcome.latestImage}`,
        context: { trigger },
      })
      .catch((err: unknown) => r.log.warn({ err }, 'update_available alert failed'));
  }
}
