import type { FastifyBaseLogger } from 'fastify';
import type { EventInput } from '../events/index.js';
import type { ChannelsService } from './channels.service.js';
import { DeliveryError, type DeliveryContext } from './channels/driver.js';
import { DRIVERS } from './channels/registry.js';
import type { OutgoingMessage } from './message.js';
import type { NotificationsStore, OutboxRow } from './notifications.store.js';

export interface OutboxOptions {
  /** Wait before retry n (1-based); defaults to base·2^(n-1), at most an hour. */
  retryDelayMs?: (attempt: number) => number;
  /** Give up on a message this long after it was queued (a day). */
  giveUpAfterMs?: number;
  /** Deliveries in flight per channel, so one slow service never holds the others. */
  perChannel?: number;
}

export interface OutboxDeps {
  store: NotificationsStore['outbox'];
  channels: ChannelsService;
  ctx: DeliveryContext;
  record: (event: EventInput) => Promise<unknown>;
  log: FastifyBaseLogger;
  now: () => number;
  options?: OutboxOptions;
}

export const DAY_MS = 24 * 3600_000;
const HOUR_MS = 3600_000;
/** How long a stop waits for deliveries in flight; the rest of the stop needs the remainder. */
const STOP_WAIT_MS = 2000;

/** Runs a delivery attempt, bounded whatever the driver does. */
export async function attempt(
  channel: { type: keyof typeof DRIVERS; config: Record<string, unknown> },
  message: OutgoingMessage,
  ctx: DeliveryContext,
): Promise<void> {
  const driver = DRIVERS[channel.type];
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      driver.send(channel.config as never, message, ctx),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new DeliveryError(`No answer within ${Math.round((ctx.timeoutMs * 3) / 1000)} s`),
            ),
          ctx.timeoutMs * 3,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The delivery side of the outbox: claims due rows per channel (a single UPDATE ...
 * RETURNING, so no row is taken twice), sends them with a bounded number in flight per
 * channel, and marks each delivered, to be retried with exponential backoff, or failed
 * after a day. Rows left 'sending' by a stopped server are queued again at start.
 */
export class OutboxWorker {
  private readonly inflight = new Map<number, number>();
  private pumping = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private readonly pending = new Set<Promise<void>>();
  /** Deliveries were left in flight by a stop: their bookkeeping may meet a closed database. */
  private abandoned = false;

  constructor(private readonly deps: OutboxDeps) {}

  async start(): Promise<void> {
    this.abandoned = false;
    const requeued = await this.deps.store.requeueInFlight();
    if (requeued > 0)
      this.deps.log.info({ requeued }, 'notifications in flight at the last stop are queued again');
    this.stopped = false;
    this.kick();
  }

  /**
   * Stops taking rows and waits (a little) for deliveries in flight, which record their
   * outcome. One still waiting on its service after that keeps its row 'sending', queued
   * again at the next start: sent again rather than lost.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const drain = Promise.allSettled([...this.pending]);
    await Promise.race([drain, new Promise((r) => setTimeout(r, STOP_WAIT_MS).unref())]);
    this.abandoned = this.pending.size > 0;
    if (this.abandoned)
      this.deps.log.info(
        { inFlight: this.pending.size },
        'notifications still being sent at the stop are sent again at the next start',
      );
  }

  /** Something was queued or a slot freed: look for work soon. */
  kick(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    setImmediate(() => {
      this.pump()
        .catch((err: unknown) => this.deps.log.error({ err }, 'notification outbox pass failed'))
        .finally(() => {
          this.pumping = false;
          if (this.again) {
            this.again = false;
            this.kick();
          }
        });
    });
  }

  private get perChannel() {
    return this.deps.options?.perChannel ?? 16;
  }

  private delay(attemptNo: number): number {
    const custom = this.deps.options?.retryDelayMs;
    if (custom !== undefined) return custom(attemptNo);
    return Math.min(5000 * 2 ** (attemptNo - 1), HOUR_MS);
  }

  private async pump(): Promise<void> {
    if (this.stopped) return;
    const now = this.deps.now();
    // Per known channel (a handful), not a scan of the queue: a claim reads the index.
    for (const channelId of this.deps.channels.ids()) {
      const free = this.perChannel - (this.inflight.get(channelId) ?? 0);
      if (free <= 0) continue;
      const rows = await this.deps.store.claim(channelId, free, now);
      for (const row of rows) {
        this.inflight.set(channelId, (this.inflight.get(channelId) ?? 0) + 1);
        const p = this.deliver(row)
          .catch((err: unknown) => {
            if (!this.abandoned)
              this.deps.log.error({ err, outbox: row.id }, 'delivery bookkeeping failed');
          })
          .finally(() => {
            this.inflight.set(channelId, (this.inflight.get(channelId) ?? 1) - 1);
            this.pending.delete(p);
            this.kick();
          });
        this.pending.add(p);
      }
    }
    await this.armTimer();
  }

  /** Wakes up when the next retry is due. */
  private async armTimer(): Promise<void> {
    if (this.stopped) return;
    const due = await this.deps.store.nextDueAt();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (due === null) return;
    const wait = Math.min(Math.max(due - this.deps.now(), 10), 60_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, wait);
    this.timer.unref();
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { store, channels } = this.deps;
    const channel = channels.live(row.channel_id);
    if (channel === undefined) {
      await store.finish(row.id, 'dropped', 'Channel deleted');
      return;
    }
    if (!channel.enabled && row.event !== 'test') {
      await store.finish(row.id, 'dropped', 'Channel disabled');
      return;
    }
    const message = JSON.parse(row.message_json) as OutgoingMessage;
    try {
      await attempt(channel, message, this.deps.ctx);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const opts = err instanceof DeliveryError ? err.options : {};
      const attempts = row.attempts + 1;
      const now = this.deps.now();
      const wait = Math.max(opts.retryAfterMs ?? 0, this.delay(attempts));
      const giveUp = now + wait - row.created_at > (this.deps.options?.giveUpAfterMs ?? DAY_MS);
      if (opts.gone === true) await channels.forgetSubscription(channel.id);
      await channels.noteOutcome(channel.id, error);
      if (opts.permanent === true || giveUp) {
        await store.finish(row.id, 'failed', error);
        await this.recordFailure(channel.name, message, error, attempts, true);
      } else {
        await store.retry(row.id, now + wait, error);
        if (attempts === 1) await this.recordFailure(channel.name, message, error, attempts, false);
      }
      return;
    }
    await store.delivered(row.id, this.deps.now());
    await channels.noteOutcome(channel.id, null);
  }

  private async recordFailure(
    channel: string,
    message: OutgoingMessage,
    error: string,
    attempts: number,
    final: boolean,
  ) {
    await this.deps
      .record({
        severity: final ? 'error' : 'warning',
        category: 'notification',
        event_type: final ? 'failed' : 'retrying',
        title: final
          ? `Notification to ${channel} failed`
          : `Notification to ${channel} failed; retrying`,
        message: `${message.title}: ${error}${final ? ` (after ${attempts} attempt(s))` : ''}`,
        host_name: message.host_name,
        container_name: message.container_name,
        correlation_id: message.alert_id,
        triggered_by: 'system',
      })
      .catch((err: unknown) =>
        this.deps.log.warn({ err }, 'could not record a notification event'),
      );
  }
}
