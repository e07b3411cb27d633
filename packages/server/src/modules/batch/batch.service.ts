import { randomUUID } from 'node:crypto';
import { parseContainerKey } from '@berth/contracts';
import type {
  BatchAction,
  BatchItem,
  BatchJob,
  BatchJobStatus,
  BatchJobSummary,
  BatchRequest,
  DesiredState,
  FloatingTagMode,
} from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { notFound } from '../../platform/http-errors.js';
import type { LiveHub } from '../../platform/live-hub.js';
import type { AuditRecord } from '../audit/index.js';
import type { ContainerSettingsService } from '../container-settings/index.js';
import type { ContainersService } from '../containers/index.js';
import type { Fleet } from '../monitor/index.js';
import type { UpdatesService } from '../updates/index.js';
import type { BatchItemRow, BatchJobRow, BatchStore } from './batch.store.js';

/** Items of one host run at most this many at a time; hosts run side by side. */
const PER_HOST_CONCURRENCY = 4;

interface Deps {
  store: BatchStore;
  hub: LiveHub;
  fleet: Fleet;
  containers: ContainersService;
  containerSettings: ContainerSettingsService;
  updates: UpdatesService;
  log: FastifyBaseLogger;
  /** Each item is audited with the job's initiator. */
  audit?: { record(entry: AuditRecord): void };
}

type Outcome = { status: 'completed' | 'skipped' | 'failed'; message: string };

const toItem = (row: BatchItemRow): BatchItem => ({
  id: row.id,
  host_id: row.host_id,
  host_name: row.host_name,
  container_id: row.container_id,
  container_name: row.container_name,
  status: row.status as BatchItem['status'],
  message: row.message,
});

function summarise(job: BatchJobRow, items: BatchItem[]): BatchJobSummary {
  const count = (status: BatchItem['status']) => items.filter((i) => i.status === status).length;
  const success = count('completed');
  const errors = count('failed');
  const skipped = count('skipped');
  return {
    job_id: job.id,
    status: job.status as BatchJobStatus,
    action: job.action as BatchAction,
    total_items: items.length,
    completed_items: success + errors + skipped,
    success_items: success,
    error_items: errors,
    skipped_items: skipped,
    created_at: job.created_at,
    completed_at: job.completed_at,
  };
}

/**
 * Runs bulk container actions in the background: every item reports queued,
 * running, then completed, skipped or failed with a message; one failure never stops the
 * others. Jobs and items are stored, so a reloaded browser finds them.
 */
export class BatchService {
  constructor(private readonly deps: Deps) {}

  /** Jobs left running by a stopped server cannot be resumed safely: close them honestly. */
  async closeInterrupted(): Promise<void> {
    for (const job of await this.deps.store.unfinished()) {
      for (const item of await this.deps.store.items(job.id)) {
        if (item.status === 'queued' || item.status === 'running')
          await this.deps.store.updateItem(item.id, {
            status: 'failed',
            message: 'Interrupted by a server restart',
          });
      }
      await this.deps.store.updateJob(job.id, {
        status: 'failed',
        completed_at: new Date().toISOString(),
      });
    }
  }

  async create(request: BatchRequest, username: string): Promise<{ job_id: string }> {
    const now = new Date().toISOString();
    const job: BatchJobRow = {
      id: randomUUID(),
      action: request.action,
      params: JSON.stringify(request.params),
      status: 'queued',
      created_by: username,
      created_at: now,
      completed_at: null,
    };
    const items: BatchItemRow[] = request.ids.map((key, position) => {
      const { hostId, containerId } = parseContainerKey(key) ?? { hostId: '', containerId: '' };
      return {
        id: randomUUID(),
        job_id: job.id,
        position,
        host_id: hostId,
        host_name: this.deps.fleet.host(hostId)?.name ?? null,
        container_id: containerId,
        container_name: this.deps.fleet.container(hostId, containerId)?.name ?? null,
        status: 'queued',
        message: null,
      };
    });
    await this.deps.store.insert(job, items);
    void this.run(job, items, request.params, username).catch((err: unknown) =>
      this.deps.log.error({ err, job: job.id }, 'batch job crashed'),
    );
    return { job_id: job.id };
  }

  /** Deletes at most `limit` rows of finished jobs created before `cutoff` (ISO); for retention. */
  pruneOlderThan(cutoff: string, limit: number): Promise<number> {
    return this.deps.store.pruneOlderThan(cutoff, limit);
  }

  /**
   * A job with the items on hosts the caller reaches (all of them for an unscoped caller);
   * a job with none of them in reach is not the caller's to see.
   */
  async get(jobId: string, reach?: { reaches(hostId: string): boolean }): Promise<BatchJob> {
    const job = await this.deps.store.job(jobId);
    if (job === undefined) throw notFound('Batch job not found');
    const all = (await this.deps.store.items(jobId)).map(toItem);
    const items = reach === undefined ? all : all.filter((i) => reach.reaches(i.host_id));
    if (items.length === 0 && all.length > 0) throw notFound('Batch job not found');
    return { ...summarise(job, items), items };
  }

  private async run(
    job: BatchJobRow,
    rows: BatchItemRow[],
    params: Record<string, unknown>,
    username: string,
  ): Promise<void> {
    const items = rows.map(toItem);
    await this.setJob(job, items, 'running');
    const byHost = new Map<string, BatchItem[]>();
    for (const item of items) byHost.set(item.host_id, [...(byHost.get(item.host_id) ?? []), item]);
    await Promise.all(
      [...byHost.values()].map((hostItems) =>
        runPool(hostItems, PER_HOST_CONCURRENCY, async (item) => {
          await this.setItem(job, item, { status: 'running', message: null });
          const stages = this.stageRecorder(job, item);
          const outcome = await this.perform(
            job.action as BatchAction,
            item,
            params,
            username,
            stages.progress,
          );
          await stages.settled();
          await this.setItem(job, item, outcome);
          this.deps.audit?.record({
            source: 'batch',
            actor: username,
            action: `container.${job.action}`,
            host_id: item.host_id,
            host_name: item.host_name,
            container_id: item.container_id,
            container_name: item.container_name,
            target: `batch ${job.id}`,
            error: outcome.status === 'failed' ? outcome.message : null,
          });
          this.publishJob(job, items);
        }),
      ),
    );
    const allFailed = items.every((i) => i.status === 'failed');
    await this.setJob(job, items, allFailed ? 'failed' : 'completed');
  }

  private async perform(
    action: BatchAction,
    item: BatchItem,
    params: Record<string, unknown>,
    username: string,
    progress: (message: string, stage: string) => void = () => undefined,
  ): Promise<Outcome> {
    const host = this.deps.fleet.host(item.host_id);
    if (host === undefined) return { status: 'failed', message: 'Host not found' };
    const engine = this.deps.fleet.engine(host.id, { purpose: 'query' });
    if (engine === null) return { status: 'failed', message: `Host ${host.name} is offline` };
    const c = this.deps.fleet.container(host.id, item.container_id);
    if (c === undefined) return { status: 'failed', message: 'Container not found' };
    const running = c.state === 'running' || c.state === 'restarting';
    if (action === 'start' && running) return { status: 'skipped', message: 'Already running' };
    if (action === 'stop' && !running) return { status: 'skipped', message: 'Already stopped' };
    const settings = this.deps.containerSettings;
    const tags = (params.tags ?? []) as string[];
    try {
      switch (action) {
        case 'start':
        case 'stop':
        case 'restart': {
          const done = await this.deps.containers.act(c.hostId, c.id, action, username);
          return { status: 'completed', message: `Now ${done.state ?? 'removed'}` };
        }
        case 'add-tags':
          await settings.patchTags(c.hostId, c.id, tags, [], username);
          return { status: 'completed', message: `Added ${tags.join(', ')}` };
        case 'remove-tags':
          await settings.patchTags(c.hostId, c.id, [], tags, username);
          return { status: 'completed', message: `Removed ${tags.join(', ')}` };
        case 'set-auto-restart': {
          const enabled = params.enabled === true;
          await settings.setAutoRestart(c.hostId, c.id, enabled, username);
          return {
            status: 'completed',
            message: `Auto-restart ${enabled ? 'enabled' : 'disabled'}`,
          };
        }
        case 'check-updates': {
          const result = await this.deps.updates.check(c, engine);
          if (result.kind === 'local')
            return { status: 'skipped', message: 'Local image: no registry digest to compare' };
          return {
            status: 'completed',
            message: result.updateAvailable ? 'Update available' : 'Up to date',
          };
        }
        case 'update': {
          const res = await this.deps.updates.execute(c.hostId, c.id, {
            force: false,
            username,
            onStage: (stage, percent, message) => progress(`${message} (${percent}%)`, stage),
          });
          if (res.status === 'success')
            return {
              status: 'completed',
              message: `Updated (new container ${res.new_container_id ?? ''})`,
            };
          if (res.status === 'blocked')
            return { status: 'skipped', message: 'Update blocked by policy' };
          if (res.status === 'requires_confirmation')
            return {
              status: 'skipped',
              message: `Needs confirmation: ${res.reason ?? 'warn policy'}`,
            };
          return { status: 'failed', message: `${res.message}. ${res.detail ?? ''}`.trim() };
        }
        case 'set-auto-update': {
          const enabled = params.enabled === true;
          const mode = (params.floating_tag_mode ?? 'exact') as FloatingTagMode;
          await settings.setAutoUpdate(c.hostId, c.id, enabled, mode, username);
          return {
            status: 'completed',
            message: enabled ? `Auto-update enabled (${mode} mode)` : 'Auto-update disabled',
          };
        }
        case 'set-desired-state': {
          const desired = params.desired_state as DesiredState;
          await settings.setDesiredState(c.hostId, c.id, { desired_state: desired }, username);
          return { status: 'completed', message: `Desired state ${desired}` };
        }
      }
    } catch (err) {
      return { status: 'failed', message: err instanceof Error ? err.message : String(err) };
    }
  }

  /**
   * An item's progress (an update's stages), live and stored: a reloaded panel, and the 2 s
   * poll that backs up live messages, then show the last stage rather than a bare 'running'.
   * The store is written when the stage changes, and at most once a second within one (the
   * pull reports its percent four times a second); writes stay in order, and the final
   * outcome waits for them so it is never overwritten by a late stage.
   */
  private stageRecorder(job: BatchJobRow, item: BatchItem) {
    let chain: Promise<void> = Promise.resolve();
    let lastStage: string | null = null;
    let lastWrite = 0;
    return {
      progress: (message: string, stage: string) => {
        item.message = message;
        this.deps.hub.publish({
          type: 'batch_item_update',
          data: { ...item, status: 'running', job_id: job.id },
        });
        const now = Date.now();
        if (stage === lastStage && now - lastWrite < 1000) return;
        lastStage = stage;
        lastWrite = now;
        chain = chain
          .then(() => this.deps.store.updateItem(item.id, { message }))
          .catch((err: unknown) =>
            this.deps.log.warn({ err, item: item.id }, 'storing a batch item stage failed'),
          );
      },
      settled: () => chain,
    };
  }

  private async setItem(
    job: BatchJobRow,
    item: BatchItem,
    change: Pick<BatchItem, 'status' | 'message'>,
  ) {
    item.status = change.status;
    item.message = change.message;
    await this.deps.store.updateItem(item.id, change);
    this.deps.hub.publish({ type: 'batch_item_update', data: { ...item, job_id: job.id } });
  }

  private async setJob(job: BatchJobRow, items: BatchItem[], status: BatchJobStatus) {
    job.status = status;
    if (status === 'completed' || status === 'failed') job.completed_at = new Date().toISOString();
    await this.deps.store.updateJob(job.id, { status, completed_at: job.completed_at });
    this.publishJob(job, items);
  }

  /** A job's summary counts every item: it goes to sockets that reach every host of the job. */
  private publishJob(job: BatchJobRow, items: BatchItem[]): void {
    const hostIds = [...new Set(items.map((i) => i.host_id))];
    this.deps.hub.publish({ type: 'batch_job_update', data: summarise(job, items) }, hostIds);
  }
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function runPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await work(item);
    }
  });
  await Promise.all(lanes);
}
