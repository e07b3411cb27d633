import { randomUUID } from 'node:crypto';
import type { Alert, AlertRuleKind, EventSeverity, NotificationRequest } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, notFound } from '../../../platform/http-errors.js';
import type { LiveHub } from '../../../platform/live-hub.js';
import type { EventInput } from '../../events/index.js';
import { toAlert, type AlertRow, type AlertsStore } from '../alerts.store.js';
import type { StoredRule } from '../rules.store.js';
import type { NotifyPort } from './notify.js';

/** The subject of an alert: a host, or a container known by host and name. */
export interface AlertScopeRef {
  type: 'host' | 'container';
  /** Host id, or `host_id:container_name`. */
  id: string;
  hostId: string;
  hostName: string | null;
  containerName: string | null;
  /** The container's current short id, for the event log's links. */
  containerId?: string | null;
}

export interface RaiseInput {
  rule: StoredRule;
  scope: AlertScopeRef;
  value: number | null;
  message: string;
  context?: NotificationRequest['context'];
}

export interface LifecycleDeps {
  store: AlertsStore;
  hub: LiveHub;
  record: (event: EventInput) => Promise<unknown>;
  notify: NotifyPort;
  log: FastifyBaseLogger;
  now: () => number;
}

/**
 * The key of one rule on one scope: an alert's dedup_key (at most one open alert per key)
 * and the key of any state a rule keeps per scope.
 */
export const ruleScopeKey = (ruleId: string, scopeId: string) => `${ruleId}|${scopeId}`;

const TEMPLATE_OF: Record<AlertRuleKind, NotificationRequest['template']> = {
  cpu_high: 'metric',
  memory_high: 'metric',
  disk_low: 'metric',
  container_unhealthy: 'health',
  health_check_failed: 'health',
  container_stopped: 'state_change',
  container_restart: 'state_change',
  host_down: 'state_change',
  update_available: 'update',
  update_completed: 'update',
  update_failed: 'update',
};

/**
 * The alert lifecycle: one unresolved alert per rule and scope; open → snoozed → open,
 * open or snoozed → resolved. Every change is stored, logged as an event of category
 * alert, pushed live, and handed to the notify port when a notification is due. Changes
 * run one at a time, so two signals for one scope never raise two alerts.
 */
export class AlertLifecycle {
  /** Unresolved alerts by dedup key. */
  private readonly open = new Map<string, AlertRow>();
  /** When each dedup key was last notified: cooldowns outlast a resolve. */
  private readonly notifiedAt = new Map<string, number>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: LifecycleDeps) {}

  async load(): Promise<void> {
    for (const row of await this.deps.store.unresolved()) {
      if (row.dedup_key === null) continue;
      this.open.set(row.dedup_key, row);
      if (row.notified_at !== null) this.notifiedAt.set(row.dedup_key, Date.parse(row.notified_at));
    }
  }

  /** The unresolved alert of a rule and scope, if any. */
  current(ruleId: string, scopeId: string): AlertRow | undefined {
    return this.open.get(ruleScopeKey(ruleId, scopeId));
  }

  unresolved(): AlertRow[] {
    return [...this.open.values()];
  }

  /** Runs changes one after another; a failure is answered to its caller only. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /**
   * The condition is met: raises a new alert, or (already unresolved) counts another
   * occurrence. `repeat` says whether a repeat is a new occurrence worth notifying again
   * once the cooldown has passed (events), or the same condition still holding (metrics).
   */
  raise(input: RaiseInput, repeat: 'occurrence' | 'ongoing'): Promise<AlertRow> {
    return this.serial(async () => {
      const key = ruleScopeKey(input.rule.id, input.scope.id);
      const existing = this.open.get(key);
      const at = new Date(this.deps.now()).toISOString();
      if (existing !== undefined) return this.again(existing, input, at, repeat);
      const row = this.newRow(input, key, at);
      await this.deps.store.insert(row);
      this.open.set(key, row);
      this.deps.hub.publish({ type: 'alert_raised', data: { alert: toAlert(row) } });
      await this.logEvent(row, 'alert_raised', `Alert raised: ${input.rule.name}`, row.message);
      await this.maybeNotify(row, input, 'raised');
      return row;
    });
  }

  private async again(row: AlertRow, input: RaiseInput, at: string, repeat: string) {
    const next: AlertRow = {
      ...row,
      last_seen: at,
      current_value: input.value,
      message: input.message,
      occurrences: row.occurrences + (repeat === 'occurrence' ? 1 : 0),
    };
    this.open.set(row.dedup_key ?? '', next);
    await this.deps.store.update(row.id, {
      last_seen: at,
      current_value: input.value,
      message: input.message,
      occurrences: next.occurrences,
    });
    if (repeat === 'occurrence' && next.state === 'open')
      await this.maybeNotify(next, input, 'raised');
    return next;
  }

  /** A metric alert still holding: last_seen and the value move, stored in one batch. */
  async touchMany(updates: { row: AlertRow; value: number; message: string }[]): Promise<void> {
    if (updates.length === 0) return;
    await this.serial(async () => {
      const at = new Date(this.deps.now()).toISOString();
      const patches = [];
      for (const { row, value, message } of updates) {
        const live = this.open.get(row.dedup_key ?? '');
        if (live?.id !== row.id) continue;
        this.open.set(row.dedup_key ?? '', {
          ...live,
          last_seen: at,
          current_value: value,
          message,
        });
        patches.push({ id: row.id, patch: { last_seen: at, current_value: value, message } });
      }
      await this.deps.store.updateMany(patches);
    });
  }

  /**
   * Resolves an unresolved alert. When its rule (given when known) has auto_resolve, the
   * channels hear that it is over, whether the condition cleared or a user resolved it.
   * A resolved alert refuses with a 400.
   */
  resolve(id: string, reason: string, auto: { rule: StoredRule } | null): Promise<AlertRow> {
    return this.serial(async () => {
      const row = await this.unresolvedOrThrow(id, 'Alert already resolved');
      const at = new Date(this.deps.now()).toISOString();
      const next: AlertRow = {
        ...row,
        state: 'resolved',
        resolved_at: at,
        resolved_reason: reason,
      };
      await this.deps.store.update(id, {
        state: 'resolved',
        resolved_at: at,
        resolved_reason: reason,
      });
      if (row.dedup_key !== null) this.open.delete(row.dedup_key);
      this.deps.hub.publish({ type: 'alert_resolved', data: { alert: toAlert(next) } });
      await this.logEvent(next, 'alert_resolved', `Alert resolved: ${this.ruleName(row)}`, reason);
      if (auto?.rule.auto_resolve === true) await this.notifyNow(next, auto.rule, 'resolved', {});
      return next;
    });
  }

  snooze(id: string, minutes: number): Promise<AlertRow> {
    return this.serial(async () => {
      const row = await this.unresolvedOrThrow(id, 'Cannot snooze a resolved alert');
      const until = new Date(this.deps.now() + minutes * 60_000).toISOString();
      return this.changeState(
        row,
        { state: 'snoozed', snoozed_until: until },
        'alert_snoozed',
        `Alert snoozed: ${this.ruleName(row)}`,
        `Snoozed for ${minutes} minute(s), until ${until}`,
      );
    });
  }

  unsnooze(id: string, why = 'Unsnoozed'): Promise<AlertRow> {
    return this.serial(async () => {
      const row = await this.unresolvedOrThrow(id, 'Cannot unsnooze a resolved alert');
      if (row.state !== 'snoozed') throw badRequest('state: Alert is not snoozed');
      return this.changeState(
        row,
        { state: 'open', snoozed_until: null },
        'alert_unsnoozed',
        `Alert unsnoozed: ${this.ruleName(row)}`,
        why,
      );
    });
  }

  /** Snoozes that ran out return to open. */
  async expireSnoozes(): Promise<number> {
    const now = this.deps.now();
    const due = this.unresolved().filter(
      (r) =>
        r.state === 'snoozed' && r.snoozed_until !== null && Date.parse(r.snoozed_until) <= now,
    );
    for (const row of due) await this.unsnooze(row.id, 'Snooze expired');
    return due.length;
  }

  /**
   * Resolves every unresolved alert the predicate picks, with one reason. An alert whose rule
   * `ruleOf` gives was resolved automatically: that rule's auto_resolve says whether its
   * channels hear of it; without one (a host deleted) nobody is told.
   */
  async resolveWhere(
    pick: (row: AlertRow) => boolean,
    reason: string,
    ruleOf: (row: AlertRow) => StoredRule | undefined = () => undefined,
  ): Promise<number> {
    let n = 0;
    for (const row of this.unresolved().filter(pick)) {
      const rule = ruleOf(row);
      try {
        await this.resolve(row.id, reason, rule === undefined ? null : { rule });
        n++;
      } catch (err) {
        this.deps.log.warn({ err, alert: row.id }, 'could not resolve an alert');
      }
    }
    return n;
  }

  private async changeState(
    row: AlertRow,
    patch: Pick<AlertRow, 'state' | 'snoozed_until'>,
    eventType: string,
    title: string,
    message: string,
  ): Promise<AlertRow> {
    const next = { ...row, ...patch };
    await this.deps.store.update(row.id, patch);
    if (row.dedup_key !== null) this.open.set(row.dedup_key, next);
    this.deps.hub.publish({ type: 'alert_changed', data: { alert: toAlert(next) } });
    await this.logEvent(next, eventType, title, message);
    return next;
  }

  private async unresolvedOrThrow(id: string, refusal: string): Promise<AlertRow> {
    const cached = this.unresolved().find((r) => r.id === id);
    const row = cached ?? (await this.deps.store.get(id));
    if (row === undefined) throw notFound('Alert not found');
    if (row.state === 'resolved') throw badRequest(`state: ${refusal}`);
    return row;
  }

  private newRow(input: RaiseInput, key: string, at: string): AlertRow {
    const { rule, scope } = input;
    const where =
      scope.type === 'host'
        ? (scope.hostName ?? scope.hostId)
        : `${scope.containerName ?? ''} on ${scope.hostName ?? scope.hostId}`;
    return {
      id: randomUUID(),
      title: `${rule.name} - ${where}`,
      message: input.message,
      kind: rule.kind,
      state: 'open',
      severity: rule.severity,
      scope_type: scope.type,
      scope_id: scope.id,
      host_id: scope.hostId,
      host_name: scope.hostName,
      container_name: scope.containerName,
      rule_id: rule.id,
      first_seen: at,
      last_seen: at,
      current_value: input.value,
      threshold: rule.threshold,
      snoozed_until: null,
      resolved_at: null,
      resolved_reason: null,
      dedup_key: key,
      rule_name: rule.name,
      notified_at: null,
      occurrences: 1,
    };
  }

  private ruleName(row: AlertRow): string {
    return row.rule_name ?? row.title;
  }

  /** Notifies unless the same rule and scope was notified within the rule's cooldown. */
  private async maybeNotify(row: AlertRow, input: RaiseInput, event: 'raised'): Promise<void> {
    const key = row.dedup_key ?? row.id;
    const last = this.notifiedAt.get(key);
    const now = this.deps.now();
    if (last !== undefined && now - last < input.rule.cooldown_seconds * 1000) return;
    await this.notifyNow(row, input.rule, event, input.context ?? {});
  }

  private async notifyNow(
    row: AlertRow,
    rule: StoredRule,
    event: 'raised' | 'resolved',
    context: NotificationRequest['context'],
  ): Promise<void> {
    const now = this.deps.now();
    const at = new Date(now).toISOString();
    const key = row.dedup_key ?? row.id;
    if (event === 'raised') {
      this.notifiedAt.set(key, now);
      const live = this.open.get(key);
      if (live !== undefined) this.open.set(key, { ...live, notified_at: at });
      await this.deps.store.update(row.id, { notified_at: at });
    }
    const request: NotificationRequest = {
      event,
      alert: toAlert(row),
      rule: {
        id: rule.id,
        name: rule.name,
        kind: rule.kind,
        severity: rule.severity,
        custom_template: rule.custom_template,
        notify_channels_json: rule.notify_channels_json,
      },
      template: TEMPLATE_OF[rule.kind],
      context,
      at,
    };
    // Delivery is the channels' business: a failing channel never stalls the engine.
    this.deps.notify
      .notify(request)
      .catch((err: unknown) => this.deps.log.warn({ err, alert: row.id }, 'notify failed'));
  }

  private async logEvent(row: AlertRow, type: string, title: string, message: string | null) {
    const severity: EventSeverity =
      type === 'alert_raised' ? (row.severity as Alert['severity']) : 'info';
    await this.deps
      .record({
        severity,
        category: 'alert',
        event_type: type,
        title,
        message: message === null ? row.title : `${row.title}: ${message}`,
        host_id: row.host_id,
        host_name: row.host_name,
        container_name: row.container_name,
        correlation_id: row.id,
        triggered_by: 'system',
      })
      .catch((err: unknown) => this.deps.log.warn({ err }, 'could not record an alert event'));
  }
}
