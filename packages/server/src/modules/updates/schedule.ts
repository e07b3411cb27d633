import { Cron } from 'croner';
import type { ContainerSnapshot } from '../monitor/index.js';
import type { UpdateChecks } from './checks.js';
import type { UpdateExecution } from './execution.js';
import type { InterruptedUpdates } from './recovery.js';
import { COMPOSE_LABEL, errText, type UpdatesContext } from './updates-context.js';

/**
 * The daily check at update_check_time (the user's offset), the auto-updates after it, and
 * finishing interrupted updates when a host comes back.
 */
export class UpdateSchedule {
  private job: Cron | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ctx: UpdatesContext,
    private readonly checks: UpdateChecks,
    private readonly execution: UpdateExecution,
    private readonly interrupted: InterruptedUpdates,
  ) {}

  start(): void {
    const r = this.ctx.r;
    this.arm();
    const offRecover = r.fleet.on('hostStatusChanged', ({ hostId, status }) => {
      if (status === 'online')
        this.interrupted
          .recover(hostId)
          .catch((err: unknown) =>
            r.log.warn({ err, hostId }, 'recovering interrupted updates failed'),
          );
    });
    const offSettings = r.settings.onChange((_s, keys) => {
      if (keys.includes('update_check_time') || keys.includes('timezone_offset')) this.arm();
    });
    this.unsubscribe = () => {
      offSettings();
      offRecover();
    };
  }

  stop(): void {
    this.job?.stop();
    this.job = null;
    this.unsubscribe?.();
  }

  /** When the next daily check runs (ms since epoch). */
  get nextRun(): number | null {
    return this.job?.nextRun()?.getTime() ?? null;
  }

  /** (Re)creates the daily job from update_check_time and timezone_offset. */
  private arm(): void {
    this.job?.stop();
    const s = this.ctx.r.settings.get();
    this.job = dailyCheckJob(s.update_check_time, s.timezone_offset, () =>
      this.runScheduled().catch((err: unknown) =>
        this.ctx.r.log.warn({ err }, 'scheduled update check failed'),
      ),
    );
  }

  /** The daily check, then auto-updates: one container at a time per host. */
  async runScheduled(): Promise<void> {
    const result = await this.checks.checkAll({ scheduled: true });
    this.ctx.r.log.info(result, 'scheduled update check finished');
    await this.autoUpdate();
  }

  async autoUpdate(): Promise<void> {
    const r = this.ctx.r;
    const auditAutoUpdate = (c: ContainerSnapshot, error: string | null) =>
      r.audit?.record({
        source: 'schedule',
        actor: 'system',
        action: 'container.auto-update',
        host_id: c.hostId,
        host_name: c.hostName,
        container_id: c.id,
        container_name: c.name,
        error,
      });
    const skipCompose = r.settings.get().skip_compose_containers;
    const rows = (await this.ctx.store.all()).filter((row) => row.update_available === 1);
    const byHost = new Map<string, ContainerSnapshot[]>();
    for (const row of rows) {
      const c = r.fleet.containerByName(row.host_id, row.container_name);
      if (c === undefined || c.image !== row.image || !this.ctx.autoEnabled(c)) continue;
      if (skipCompose && c.labels[COMPOSE_LABEL] !== undefined) continue;
      byHost.set(c.hostId, [...(byHost.get(c.hostId) ?? []), c]);
    }
    await Promise.all(
      [...byHost.values()].map(async (list) => {
        for (const c of list) {
          try {
            const res = await this.execution.execute(c.hostId, c.id, {
              force: false,
              username: 'auto-update',
              auto: true,
            });
            r.log.info({ container: c.name, status: res.status }, 'auto-update');
            auditAutoUpdate(c, res.status === 'success' ? null : res.message);
          } catch (err) {
            r.log.warn({ err, container: c.name }, 'auto-update failed');
            auditAutoUpdate(c, errText(err));
          }
        }
      }),
    );
  }
}

/**
 * A job that runs `run` daily when the wall clock at `offsetMinutes` east of UTC reads `hhmm`;
 * a run still going when the next is due is not doubled.
 */
export function dailyCheckJob(hhmm: string, offsetMinutes: number, run: () => Promise<void>): Cron {
  const [h, m] = hhmm.split(':').map(Number);
  return new Cron(
    `${m ?? 0} ${h ?? 2} * * *`,
    { utcOffset: offsetMinutes, protect: true, unref: true },
    run,
  );
}
