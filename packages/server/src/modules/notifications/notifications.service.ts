import type {
  ChannelDependents,
  ChannelTestResult,
  NotificationRequest,
  TemplatePreview,
  TemplatePreviewRequest,
  TemplateVariables,
  WebPushKey,
  WritableSettings,
} from '@berth/contracts';
import { templatePreviewRequestSchema } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveHub } from '../../platform/live-hub.js';
import type { SecretBox } from '../../platform/secret-box.js';
import type { EventInput } from '../events/index.js';
import { activeWindow } from './blackout.js';
import { ChannelsService } from './channels.service.js';
import { DeliveryError, type NotificationEndpoints, type VapidDetails } from './channels/driver.js';
import { DRIVERS } from './channels/registry.js';
import type { OutgoingMessage } from './message.js';
import type { NewOutboxRow, NotificationsStore } from './notifications.store.js';
import { attempt, DAY_MS, OutboxWorker, type OutboxOptions } from './outbox.js';
import { loadVapid } from './web-push-keys.js';
import {
  DEFAULT_TEMPLATES,
  formatTime,
  kindLabel,
  pickTemplate,
  recoveryBody,
  renderTemplate,
  sampleRequest,
  TEMPLATE_VARIABLES,
  variablesOf,
} from './templates.js';

export interface NotificationsDeps {
  store: NotificationsStore;
  box: SecretBox;
  settings: {
    get(): WritableSettings;
    onChange(listener: (s: WritableSettings, changed: (keyof WritableSettings)[]) => void): unknown;
  };
  hub: LiveHub;
  record: (event: EventInput) => Promise<unknown>;
  /** The alerts unresolved now (for the blackout summary), as the alerts' store has them. */
  unresolvedAlerts: () => Promise<{ id: string; first_seen: string }[]>;
  endpoints: NotificationEndpoints;
  log: FastifyBaseLogger;
  now?: () => number;
  outbox?: OutboxOptions;
  /** How often the blackout windows are looked at (15 s). */
  blackoutCheckMs?: number;
}

/**
 * The alert rules, as far as they name channels. The alerts module sits above this one (it
 * notifies through it), so the routes hand its rules in rather than this service holding them.
 */
export interface ChannelRules {
  /** Names of the rules that notify a channel. */
  usingChannel(channelId: number): string[];
  /** Takes a channel out of every rule that notifies it. */
  forgetChannel(channelId: number): Promise<void>;
}

const TIMEOUT_MS = 10_000;

/**
 * Notification channels, the outbox and blackout windows; the alert engine's notify port.
 * Every notification due is written to the outbox first (one row per channel, deduplicated
 * by alert, transition and channel), then delivered by the worker. During a blackout rows
 * are held; when it ends each channel gets one summary of what is still open.
 */
export class NotificationsService {
  readonly channels: ChannelsService;
  private readonly worker: OutboxWorker;
  private readonly now: () => number;
  private blackout: string | null = null;
  private blackoutTimer: NodeJS.Timeout | null = null;
  private releasing: Promise<void> = Promise.resolve();
  private vapid: VapidDetails | null = null;

  constructor(private readonly deps: NotificationsDeps) {
    this.now = deps.now ?? (() => Date.now());
    this.channels = new ChannelsService(deps.store.channels, deps.box);
    this.worker = new OutboxWorker({
      store: deps.store.outbox,
      channels: this.channels,
      ctx: this.ctx,
      record: deps.record,
      log: deps.log,
      now: this.now,
      ...(deps.outbox === undefined ? {} : { options: deps.outbox }),
    });
  }

  private get ctx() {
    return {
      endpoints: this.deps.endpoints,
      timeoutMs: TIMEOUT_MS,
      product: 'Berth',
      vapid: () => this.vapid,
    };
  }

  /** The VAPID public key browsers subscribe with (GET /notifications/web-push/key). */
  async webPushKey(): Promise<WebPushKey> {
    this.vapid ??= await loadVapid(this.deps.store.vapid, this.deps.box);
    return { public_key: this.vapid.publicKey };
  }

  async start(): Promise<void> {
    await this.channels.load();
    this.vapid = await loadVapid(this.deps.store.vapid, this.deps.box);
    await this.deps.store.outbox.prune(this.now() - 7 * DAY_MS);
    this.checkBlackout();
    await this.releasing;
    await this.worker.start();
    this.deps.settings.onChange((_s, changed) => {
      if (changed.some((k) => k === 'blackout_windows' || k === 'timezone_offset'))
        this.checkBlackout();
    });
    this.blackoutTimer = setInterval(
      () => this.checkBlackout(),
      this.deps.blackoutCheckMs ?? 15_000,
    );
    this.blackoutTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.blackoutTimer !== null) clearInterval(this.blackoutTimer);
    this.blackoutTimer = null;
    await this.worker.stop();
    await this.releasing.catch(() => undefined);
    for (const d of Object.values(DRIVERS)) d.close?.();
  }

  /** Whether a blackout window covers now (initial_state). */
  blackoutActive(): boolean {
    this.checkBlackout();
    return this.blackout !== null;
  }

  /**
   * Looks at the windows; on a change says so live, and at the end of a blackout replaces
   * the held rows by one summary per channel.
   */
  private checkBlackout(): void {
    const s = this.deps.settings.get();
    const name = activeWindow(s.blackout_windows, s.timezone_offset, this.now())?.name ?? null;
    const was = this.blackout;
    if (name === was) return;
    this.blackout = name;
    this.deps.hub.publish({
      type: 'blackout_status_changed',
      data: { is_blackout: name !== null, window_name: name ?? was },
    });
    this.deps.log.info(
      { window: name ?? was },
      name === null ? 'blackout ended' : 'blackout started',
    );
    if (name === null) {
      this.releasing = this.releasing
        .then(() => this.releaseHeld(was))
        .catch((err: unknown) => this.deps.log.error({ err }, 'blackout summary failed'));
    }
  }

  /** The notify port: renders and queues; never waits for a delivery. */
  async notify(request: NotificationRequest): Promise<void> {
    // A check someone asked for shows its answer on screen; it is not news to send.
    if (request.context.trigger === 'manual') return;
    const ids = request.rule.notify_channels_json
      .map(Number)
      .filter((id) => this.channels.live(id)?.enabled === true);
    if (ids.length === 0) return;
    const message = this.render(request);
    this.checkBlackout();
    const status = this.blackout === null ? 'pending' : 'held';
    const transition =
      request.event === 'raised' ? `raised#${request.alert.occurrences}` : 'resolved';
    const now = this.now();
    const rows: NewOutboxRow[] = ids.map((id) => ({
      dedup_key: `${request.alert.id}|${transition}|${id}`,
      channel_id: id,
      alert_id: request.alert.id,
      event: request.event,
      message_json: JSON.stringify(message),
      status,
      next_attempt_at: now,
      created_at: now,
    }));
    await this.deps.store.outbox.insertMany(rows);
    if (status === 'pending') this.worker.kick();
  }

  /** The message of a notification request, its template chosen and filled. */
  render(request: NotificationRequest): OutgoingMessage {
    const settings = this.deps.settings.get();
    const { alert, rule } = request;
    const where = [alert.container_name, alert.host_name].filter((x) => x !== null).join(' on ');
    const resolved = request.event === 'resolved';
    const body = resolved
      ? recoveryBody(request, settings.timezone_offset)
      : renderTemplate(
          pickTemplate(request, settings),
          variablesOf(request, settings.timezone_offset),
        ).text;
    return {
      kind: resolved ? 'resolved' : 'alert',
      title: resolved
        ? `Resolved: ${kindLabel(rule.kind)} - ${where}`
        : `${rule.severity.toUpperCase()}: ${kindLabel(rule.kind)} - ${where}`,
      body,
      severity: rule.severity,
      alert_id: alert.id,
      host_name: alert.host_name,
      container_name: alert.container_name,
      rule_name: rule.name,
      at: request.at,
    };
  }

  private async releaseHeld(windowName: string | null): Promise<void> {
    const held = await this.deps.store.outbox.held();
    if (held.length === 0) return;
    const open = new Map((await this.deps.unresolvedAlerts()).map((a) => [a.id, a]));
    const offset = this.deps.settings.get().timezone_offset;
    const byChannel = new Map<number, typeof held>();
    for (const row of held)
      byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
    const summaries: NewOutboxRow[] = [];
    const now = this.now();
    for (const [channelId, rows] of byChannel) {
      const raised = new Map<string, OutgoingMessage>();
      for (const r of rows) {
        if (r.event === 'raised' && r.alert_id !== null)
          raised.set(r.alert_id, JSON.parse(r.message_json) as OutgoingMessage);
      }
      const stillOpen = [...raised.entries()].filter(([id]) => open.has(id));
      if (stillOpen.length === 0) continue;
      const lines = stillOpen
        .slice(0, 25)
        .map(
          ([id, m]) =>
            `• **${m.severity.toUpperCase()}** ${m.title.replace(/^[A-Z]+: /, '')} (since ${formatTime(open.get(id)?.first_seen ?? m.at, offset)})`,
        );
      if (stillOpen.length > 25) lines.push(`…and ${stillOpen.length - 25} more`);
      const worst = (['critical', 'error', 'warning', 'info'] as const).find((sev) =>
        stillOpen.some(([, m]) => m.severity === sev),
      );
      const message: OutgoingMessage = {
        kind: 'summary',
        title: `Blackout ended: ${stillOpen.length} alert(s) still open`,
        body:
          `🌙 **Blackout window ended${windowName === null ? '' : `: ${windowName}`}**\n\n` +
          `Raised during the blackout: ${raised.size} alert(s); still open: ${stillOpen.length}.\n\n` +
          lines.join('\n'),
        severity: worst ?? 'info',
        alert_id: null,
        host_name: null,
        container_name: null,
        rule_name: null,
        at: new Date(now).toISOString(),
      };
      summaries.push({
        dedup_key: `summary|${channelId}|${rows[0]?.id ?? 0}-${rows.at(-1)?.id ?? 0}`,
        channel_id: channelId,
        alert_id: null,
        event: 'summary',
        message_json: JSON.stringify(message),
        status: 'pending',
        next_attempt_at: now,
        created_at: now,
      });
    }
    await this.deps.store.outbox.releaseHeld(
      held.map((r) => r.id),
      summaries,
    );
    this.worker.kick();
  }

  /** POST /channels/{id}/test: one real attempt now, outside the outbox and any blackout. */
  async test(id: number): Promise<ChannelTestResult> {
    this.channels.get(id);
    const channel = this.channels.live(id);
    if (channel === undefined) return { success: false, error: 'Channel not found' };
    const at = new Date(this.now()).toISOString();
    const message: OutgoingMessage = {
      kind: 'test',
      title: 'Berth test notification',
      body: `🧪 **Berth test notification**\n\nThis test message from Berth shows that the channel **${channel.name}** is configured correctly.`,
      severity: 'info',
      alert_id: null,
      host_name: null,
      container_name: null,
      rule_name: null,
      at,
    };
    try {
      await attempt(channel, message, this.ctx);
      await this.channels.noteOutcome(id, null);
      return { success: true, error: null };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      if (err instanceof DeliveryError && err.options.gone === true)
        await this.channels.forgetSubscription(id);
      await this.channels.noteOutcome(id, error);
      return { success: false, error };
    }
  }

  /**
   * The rules that notify a channel. A channel that does not exist (any more) has none: the
   * settings page asks again right after a delete, and that is no error.
   */
  dependents(id: number, rules: ChannelRules): ChannelDependents {
    const names = rules.usingChannel(id);
    return { alert_count: names.length, alert_names: names };
  }

  /** The channel goes, and with it its place in every rule that notified it. */
  async deleteChannel(id: number, rules: ChannelRules): Promise<void> {
    this.channels.get(id);
    await rules.forgetChannel(id);
    await this.channels.delete(id);
  }

  templateVariables(): TemplateVariables {
    return { variables: TEMPLATE_VARIABLES, default_templates: DEFAULT_TEMPLATES };
  }

  preview(body: TemplatePreviewRequest): TemplatePreview {
    const { template, kind } = templatePreviewRequestSchema.parse(body);
    const sample = sampleRequest(kind, new Date(this.now()).toISOString());
    return renderTemplate(template, variablesOf(sample, this.deps.settings.get().timezone_offset));
  }

  /** Outbox counts by status (tests and the benchmark). */
  outboxCounts(): Promise<Record<string, number>> {
    return this.deps.store.outbox.counts();
  }
}
