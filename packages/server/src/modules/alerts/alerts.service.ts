import {
  alertSeveritySchema,
  alertStateSchema,
  MANUAL_RESOLVE_REASON,
  type Alert,
  type AlertAnnotation,
  type AlertListQuery,
  type AlertListResponse,
  type AlertStats,
} from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, notFound } from '../../platform/http-errors.js';
import type { LiveHub } from '../../platform/live-hub.js';
import type { EventInput } from '../events/index.js';
import type { HostEvents } from '../hosts/index.js';
import type { Fleet } from '../monitor/index.js';
import { toAlert, type AlertCounts, type AlertsStore, type HostFilter } from './alerts.store.js';
import { AlertLifecycle } from './engine/alert-lifecycle.js';
import { AlertEvaluator, type Signal } from './engine/evaluator.js';
import type { LookBackPort } from './engine/look-back.js';
import { LoggingNotifier, type NotifyPort } from './engine/notify.js';
import type { HostFacts } from './engine/selectors.js';
import type { SettingsOf } from './engine/watched-container.js';
import type { StateKindOptions } from './engine/state-kinds.js';
import { RulesService } from './rules.service.js';
import type { RulesStore } from './rules.store.js';

const zeroes = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

const UNRESOLVED = alertStateSchema.options.filter((s) => s !== 'resolved');

/** Retention deletes resolved alerts in chunks this big, so writers never wait long. */
const PRUNE_CHUNK = 1000;

export interface AlertsDeps {
  store: AlertsStore;
  rulesStore: RulesStore;
  hub: LiveHub;
  record: (event: EventInput) => Promise<unknown>;
  log: FastifyBaseLogger;
  notify?: NotifyPort;
  now?: () => number;
  engineOptions?: StateKindOptions & { maintenanceMs?: number };
  fleet: Fleet;
  /** Hosts with their tags (for selectors) as they are at start... */
  hostDirectory: () => Promise<HostFacts[]>;
  /** ...then as they are added, changed and removed. */
  hostEvents: HostEvents;
  /** The user's settings of a container (tags, desired state). */
  settingsOf: SettingsOf;
  /** Means over a window from metrics history (look-back rules). */
  lookBack?: LookBackPort;
  /** Hours the 10 s history tier keeps now (look-back windows must fit in it). */
  history10sHours?: () => number;
}

/** Alerts for the screens, their lifecycle, the rules and the engine that raises them. */
export class AlertsService {
  readonly lifecycle: AlertLifecycle;
  readonly rules: RulesService;
  private readonly evaluator: AlertEvaluator;

  constructor(private readonly deps: AlertsDeps) {
    this.lifecycle = new AlertLifecycle({
      store: deps.store,
      hub: deps.hub,
      record: deps.record,
      notify: deps.notify ?? new LoggingNotifier(deps.log),
      log: deps.log,
      now: deps.now ?? (() => Date.now()),
    });
    const now = deps.now ?? (() => Date.now());
    const { fleet, hostDirectory, hostEvents, settingsOf } = deps;
    const evaluator = new AlertEvaluator({
      fleet,
      lifecycle: this.lifecycle,
      log: deps.log,
      now,
      hostDirectory,
      hostEvents,
      settingsOf,
      ...(deps.lookBack === undefined ? {} : { lookBack: deps.lookBack }),
      ...(deps.engineOptions === undefined ? {} : { options: deps.engineOptions }),
    });
    this.evaluator = evaluator;
    this.rules = new RulesService({
      store: deps.rulesStore,
      fleet,
      hostDirectory,
      record: deps.record,
      changed: (all) => evaluator.setRules(all),
      now,
      ...(deps.history10sHours === undefined ? {} : { history10sHours: deps.history10sHours }),
    });
  }

  async start(): Promise<void> {
    await this.lifecycle.load();
    await this.evaluator.start(await this.rules.load());
  }

  stop(): void {
    this.evaluator.stop();
  }

  /** Raises or resolves a health-check or update alert (their modules call this). */
  signal(s: Signal): Promise<void> {
    return this.evaluator.signal(s);
  }

  /** While a container is updated, rules with suppress_during_updates raise nothing for it. */
  setUpdating(hostId: string, containerName: string, updating: boolean): void {
    this.evaluator.setUpdating(hostId, containerName, updating);
  }

  /** `hosts`: the caller's hosts in reach, or null for every host. */
  async list(q: AlertListQuery, hosts: HostFilter = null): Promise<AlertListResponse> {
    const { rows, total } = await this.deps.store.list(q, hosts);
    return { alerts: rows.map(toAlert), total, page: q.page, page_size: q.page_size };
  }

  async get(id: string): Promise<Alert> {
    const row = await this.deps.store.get(id);
    if (row === undefined) throw notFound('Alert not found');
    return toAlert(row);
  }

  /** States count every alert; severities only the unresolved ones (the page's summary). */
  async stats(hosts: HostFilter = null): Promise<AlertStats> {
    const byState = zeroes(alertStateSchema.options);
    const bySeverity = zeroes(alertSeveritySchema.options);
    const { rows, total } = await this.deps.store.counts(UNRESOLVED, hosts);
    let unresolved = 0;
    for (const { state, severity, n } of rows) {
      unresolved += n;
      if (state in byState) byState[state as keyof typeof byState] += n;
      if (severity in bySeverity) bySeverity[severity as keyof typeof bySeverity] += n;
    }
    byState.resolved = total - unresolved;
    return { by_state: byState, by_severity: bySeverity };
  }

  async annotations(id: string): Promise<AlertAnnotation[]> {
    await this.get(id);
    return this.deps.store.annotations(id);
  }

  /** Resolved alerts are closed to annotations. */
  async annotate(id: string, user: string, text: string): Promise<AlertAnnotation> {
    const alert = await this.get(id);
    if (alert.state === 'resolved') throw badRequest('state: Cannot annotate a resolved alert');
    const now = new Date((this.deps.now ?? (() => Date.now()))()).toISOString();
    return this.deps.store.annotate(id, user, text, now);
  }

  async resolve(id: string, reason: string | undefined): Promise<Alert> {
    const text = reason === undefined || reason === '' ? MANUAL_RESOLVE_REASON : reason;
    const ruleId = (await this.deps.store.get(id))?.rule_id;
    const rule = this.rules.all().find((r) => r.id === ruleId);
    const row = await this.lifecycle.resolve(id, text, rule === undefined ? null : { rule });
    this.evaluator.forget(row);
    return toAlert(row);
  }

  async snooze(id: string, minutes: number): Promise<Alert> {
    return toAlert(await this.lifecycle.snooze(id, minutes));
  }

  async unsnooze(id: string): Promise<Alert> {
    return toAlert(await this.lifecycle.unsnooze(id));
  }

  /** Unresolved alerts per state and severity (the metrics export). */
  async unresolvedCounts(): Promise<{ state: string; severity: string; n: number }[]> {
    return (await this.deps.store.counts(UNRESOLVED)).rows;
  }

  countsByHost(): Promise<Map<string, AlertCounts>> {
    return this.deps.store.countsByHost();
  }

  /** Deleting a host resolves its open and snoozed alerts, saying why. */
  async resolveForHost(hostId: string): Promise<number> {
    const reason = 'Host deleted';
    const viaEngine = await this.lifecycle.resolveWhere((a) => a.host_id === hostId, reason);
    const rest = await this.deps.store.resolveForHost(hostId, reason, new Date().toISOString());
    return viaEngine + rest;
  }

  /** Deletes at most `limit` alerts resolved before `cutoff` (ISO); for retention. */
  pruneResolvedBefore(cutoff: string, limit: number): Promise<number> {
    return this.deps.store.pruneResolvedBefore(cutoff, limit);
  }

  /** Deletes every alert resolved before `cutoff`, a chunk at a time; answers how many went. */
  async pruneResolvedOlderThan(cutoff: string): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.pruneResolvedBefore(cutoff, PRUNE_CHUNK);
      total += n;
      if (n < PRUNE_CHUNK) return total;
      await new Promise((r) => setImmediate(r));
    }
  }
}
