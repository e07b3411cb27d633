import { containerScopeId, type NotificationRequest, type AlertRuleKind } from '@berth/contracts';
import type { HostEvents } from '../../hosts/index.js';
import type { StoredRule } from '../rules.store.js';
import type { AlertRow } from '../alerts.store.js';
import {
  autoResolve,
  containerRules,
  containerScope,
  hostRules,
  hostScope,
  logFailure,
  type EngineContext,
} from './engine-context.js';
import { LookBack, type LookBackPort } from './look-back.js';
import { breaches, MetricWindow, type MetricTiming } from './metric-window.js';
import type { AlertScopeRef } from './alert-lifecycle.js';
import { OneShotClearing } from './one-shot-clearing.js';
import type { HostFacts } from './selectors.js';
import { StateKinds, type StateKindOptions } from './state-kinds.js';
import { watchedContainer, type SettingsOf, type WatchedContainer } from './watched-container.js';

/** Snoozes are checked and vanished containers swept at least this often. */
const MAINTENANCE_MS = 15_000;
/** The disk is read at most this often per host (a statfs and an engine info call). */
const DISK_EVERY_MS = 10_000;
const STATS_OWNER = 'alert-rules';

export interface EvaluatorDeps extends Omit<
  EngineContext,
  'rulesOf' | 'rule' | 'host' | 'updating' | 'container'
> {
  /** The user's settings of a container (tags, desired state), by host and name. */
  settingsOf: SettingsOf;
  /** Hosts with their tags (for selectors), read once at start... */
  hostDirectory: () => Promise<HostFacts[]>;
  /** ...and followed from then on as they are added, changed and removed. */
  hostEvents: HostEvents;
  /** Means over a window from metrics history, for look-back rules (none: they never raise). */
  lookBack?: LookBackPort;
  options?: StateKindOptions & { maintenanceMs?: number };
}

/** The kinds other modules raise and resolve (health checks, updates). */
export type SignalKind = Extract<
  AlertRuleKind,
  'health_check_failed' | 'update_available' | 'update_completed' | 'update_failed'
>;

export interface Signal {
  kind: SignalKind;
  hostId: string;
  containerName: string;
  /** true raises (or counts another occurrence), false resolves. */
  active: boolean;
  message: string;
  context?: NotificationRequest['context'];
}

const timingOf = (rule: StoredRule): MetricTiming => {
  const threshold = rule.threshold ?? 0;
  return {
    operator: rule.operator ?? '>=',
    threshold,
    durationMs: rule.duration_seconds * 1000,
    occurrences: rule.occurrences,
    clearThreshold: rule.clear_threshold ?? threshold,
    clearDurationMs: (rule.clear_duration_seconds ?? rule.duration_seconds) * 1000,
  };
};

const pct = (n: number) => `${n.toFixed(1)}%`;
const MIB = 1024 * 1024;

/**
 * The rule engine: metric kinds on every stats pass (asking the monitor for the polling
 * cadence while an enabled metric rule exists), the state kinds on engine and host events,
 * signals from other modules, snooze expiry and vanished containers on a timer.
 */
export class AlertEvaluator {
  private rules: StoredRule[] = [];
  private readonly hostsById = new Map<string, HostFacts>();
  private readonly windows = new Map<string, Map<string, MetricWindow>>();
  private readonly updatingSet = new Set<string>();
  private readonly diskReadAt = new Map<string, number>();
  private readonly ctx: EngineContext;
  private readonly state: StateKinds;
  private readonly oneShots: OneShotClearing;
  private readonly lookBack: LookBack;
  private readonly unsubscribe: (() => void)[] = [];
  private maintenanceTimer: ReturnType<typeof setInterval> | undefined;
  private passing = false;

  constructor(private readonly deps: EvaluatorDeps) {
    this.ctx = {
      ...deps,
      rulesOf: (kind) => this.rules.filter((r) => r.enabled && r.kind === kind),
      rule: (id) => this.rules.find((r) => r.id === id),
      host: (id) => this.hostsById.get(id),
      updating: (hostId, name) => this.updatingSet.has(containerScopeId(hostId, name)),
      container: (hostId, name) => watchedContainer(deps.fleet, deps.settingsOf, hostId, name),
    };
    this.state = new StateKinds(this.ctx, deps.options);
    this.oneShots = new OneShotClearing(this.ctx);
    this.lookBack = new LookBack(this.ctx, deps.lookBack, () => [...this.hostsById.keys()]);
  }

  async start(rules: StoredRule[]): Promise<void> {
    // Following first, then reading: a host added meanwhile is in one or the other.
    this.followHosts();
    const read = await this.deps.hostDirectory();
    for (const h of read) if (!this.hostsById.has(h.id)) this.hostsById.set(h.id, h);
    this.setRules(rules);
    const { fleet } = this.deps;
    this.unsubscribe.push(
      fleet.on('containerChanged', (ev) => this.state.onContainer(ev)),
      fleet.on('hostStatusChanged', (ev) => this.state.hostDown.onHostStatus(ev)),
      fleet.on('statsSampled', () => {
        this.statsPass().catch(logFailure(this.ctx, 'stats pass'));
      }),
    );
    this.maintenanceTimer = setInterval(() => {
      this.maintain().catch(logFailure(this.ctx, 'maintenance'));
    }, this.deps.options?.maintenanceMs ?? MAINTENANCE_MS);
  }

  stop(): void {
    for (const off of this.unsubscribe.splice(0)) off();
    clearInterval(this.maintenanceTimer);
    this.state.stop();
    this.oneShots.stop();
    this.deps.fleet.demandStats(STATS_OWNER, false);
  }

  /** The rules changed: new timing applies, removed or disabled rules forget their windows. */
  setRules(rules: StoredRule[]): void {
    this.rules = rules;
    const metric = rules.filter((r) => r.enabled && r.metric !== null);
    for (const [id, perScope] of this.windows) {
      const rule = metric.find((r) => r.id === id);
      // A look-back rule reads history, not samples: its windows are forgotten.
      if (rule === undefined || rule.look_back === true) this.windows.delete(id);
      else for (const w of perScope.values()) w.retime(timingOf(rule));
    }
    this.deps.fleet.demandStats(STATS_OWNER, metric.length > 0);
    this.lookBack.rulesChanged();
    this.state.hostDown.rulesChanged();
    this.oneShots.trackAll();
  }

  /** Selectors read hosts as they are now: added, renamed, retagged or removed a moment ago. */
  private followHosts(): void {
    const { hostEvents } = this.deps;
    this.unsubscribe.push(
      hostEvents.on('hostAdded', ({ host }) => this.hostsById.set(host.id, host)),
      hostEvents.on('hostChanged', ({ host }) => {
        this.hostsById.set(host.id, host);
        this.state.hostDown.hostChanged(host.id);
      }),
      hostEvents.on('hostRemoved', ({ host }) => {
        this.hostsById.delete(host.id);
        this.state.hostDown.hostRemoved(host.id);
      }),
    );
  }

  /** Health checks and updates raise and resolve through here. */
  async signal(s: Signal): Promise<void> {
    const info = this.ctx.container(s.hostId, s.containerName);
    const facts = info ?? {
      host_id: s.hostId,
      name: s.containerName,
      tags: [],
      desired_state: 'unspecified' as const,
    };
    const scopeId = containerScopeId(s.hostId, s.containerName);
    if (!s.active) {
      await autoResolve(this.ctx, (a) => a.kind === s.kind && a.scope_id === scopeId, s.message);
      return;
    }
    for (const rule of containerRules(this.ctx, s.kind, facts)) {
      const scope = containerScope(this.ctx, s.hostId, s.containerName, info?.id ?? null);
      const row = await this.ctx.lifecycle.raise(
        { rule, scope, value: null, message: s.message, context: s.context ?? {} },
        'occurrence',
      );
      this.oneShots.track(row);
    }
  }

  /** While set, container alerts of rules with suppress_during_updates wait. */
  setUpdating(hostId: string, containerName: string, updating: boolean): void {
    const key = containerScopeId(hostId, containerName);
    if (updating) this.updatingSet.add(key);
    else this.updatingSet.delete(key);
  }

  /** A manual resolve: the condition must hold for its whole duration again. */
  forget(alert: AlertRow): void {
    if (alert.rule_id === null) return;
    this.windows.get(alert.rule_id)?.get(alert.scope_id)?.reset();
    this.lookBack.forget(alert.rule_id, alert.scope_id);
  }

  async maintain(): Promise<void> {
    await this.ctx.lifecycle.expireSnoozes();
    for (const a of this.ctx.lifecycle.unresolved()) {
      if (a.scope_type !== 'container' || a.host_id === null || a.container_name === null) continue;
      if (this.deps.fleet.host(a.host_id)?.status === 'offline') continue;
      if (this.deps.fleet.containerByName(a.host_id, a.container_name) === undefined)
        this.state.removed(a.host_id, a.container_name);
    }
  }

  /** One pass over the samples of every metric rule. */
  async statsPass(): Promise<void> {
    if (this.passing) return; // a slow pass is never stacked on another
    this.passing = true;
    try {
      const metric = this.rules.filter((r) => r.enabled && r.metric !== null);
      if (metric.length === 0) return;
      const touches: { row: AlertRow; value: number; message: string }[] = [];
      const sample = this.sampler(touches);
      const sampled = metric.filter((r) => r.look_back !== true);
      if (sampled.some((r) => r.scope === 'container')) this.containerPass(sample);
      if (sampled.length > 0)
        for (const hostId of this.hostsById.keys()) await this.hostPass(hostId, sample);
      await this.lookBack.pass(
        metric.filter((r) => r.look_back === true),
        touches,
      );
      await this.ctx.lifecycle.touchMany(touches);
    } finally {
      this.passing = false;
    }
  }

  /**
   * Running containers only: the API shape (tags, stats) is built for those alone, and a
   * container no rule of a kind watches costs a filter, not a window.
   */
  private containerPass(sample: Sampler): void {
    const { fleet } = this.deps;
    for (const snap of fleet.containers()) {
      if (snap.state !== 'running') continue;
      const c = this.ctx.container(snap.hostId, snap.name);
      if (c === undefined) continue;
      for (const kind of ['cpu_high', 'memory_high'] as const) {
        const value = kind === 'cpu_high' ? c.cpu_percent : c.memory_percent;
        if (value === null) continue;
        for (const rule of containerRules(this.ctx, kind, c)) {
          if (rule.scope !== 'container') continue;
          const scope = containerScope(this.ctx, c.host_id, c.name, c.id);
          sample(rule, scope, value, () => this.describe(rule, value, c));
        }
      }
    }
  }

  private async hostPass(hostId: string, sample: Sampler): Promise<void> {
    const m = this.deps.fleet.hostMetrics(hostId);
    if (m === null) return;
    const scope = hostScope(this.ctx, hostId);
    for (const rule of hostRules(this.ctx, 'cpu_high', hostId))
      sample(rule, scope, m.cpu_percent, () => this.describe(rule, m.cpu_percent));
    for (const rule of hostRules(this.ctx, 'memory_high', hostId))
      sample(rule, scope, m.mem_percent, () => this.describe(rule, m.mem_percent));
    const disk = hostRules(this.ctx, 'disk_low', hostId);
    const now = this.ctx.now();
    if (disk.length === 0 || now - (this.diskReadAt.get(hostId) ?? 0) < DISK_EVERY_MS) return;
    this.diskReadAt.set(hostId, now);
    const d = await this.deps.fleet.engineDisk(hostId);
    if (!('percent' in d)) return; // not measurable here: the rule says so, no alert is invented
    for (const rule of disk)
      sample(rule, scope, d.percent, () => this.describe(rule, d.percent, undefined, d.path));
  }

  private sampler(touches: { row: AlertRow; value: number; message: string }[]): Sampler {
    return (rule, scope, value, message) => {
      if (rule.look_back === true) return; // judged on history's mean instead
      let perScope = this.windows.get(rule.id);
      const open = this.ctx.lifecycle.current(rule.id, scope.id);
      let w = perScope?.get(scope.id);
      // Nothing open, nothing remembered and no breach: a new window would be idle at once.
      if (
        w === undefined &&
        open === undefined &&
        !breaches(value, rule.operator ?? '>=', rule.threshold ?? 0)
      )
        return;
      if (perScope === undefined)
        this.windows.set(rule.id, (perScope = new Map<string, MetricWindow>()));
      if (w === undefined) {
        w = new MetricWindow(timingOf(rule));
        perScope.set(scope.id, w);
      }
      const verdict = w.sample(value, this.ctx.now(), open !== undefined);
      if (w.idle && open === undefined) perScope.delete(scope.id);
      if (open !== undefined) {
        if (verdict === 'clear') {
          w.reset();
          this.ctx.lifecycle
            .resolve(open.id, 'Condition cleared', { rule })
            .catch(logFailure(this.ctx, 'metric resolve'));
        } else touches.push({ row: open, value, message: message() });
      } else if (verdict === 'raise') {
        this.ctx.lifecycle
          .raise(
            {
              rule,
              scope,
              value,
              message: message(),
              context: { current_value: value, threshold: rule.threshold },
            },
            'ongoing',
          )
          .catch(logFailure(this.ctx, 'metric raise'));
      }
    };
  }

  /** The alert's message; a container's memory is said to be of its own limit when it has one. */
  private describe(rule: StoredRule, value: number, c?: WatchedContainer, path?: string): string {
    const cond = `(threshold ${rule.operator ?? '>='} ${pct(rule.threshold ?? 0)})`;
    if (rule.kind === 'cpu_high') return `CPU is ${pct(value)} ${cond}`;
    if (rule.kind === 'disk_low')
      return `Disk holding ${path ?? 'the data root'} is ${pct(value)} used ${cond}`;
    if (c === undefined) return `Memory is ${pct(value)} of the host's memory ${cond}`;
    const hostMemory = this.deps.fleet.hostMetrics(c.host_id)?.total_memory ?? Infinity;
    const ownLimit = c.memory_limit !== null && c.memory_limit < hostMemory;
    return ownLimit
      ? `Memory is ${pct(value)} of the container's own ${Math.round((c.memory_limit ?? 0) / MIB)} MiB limit ${cond}`
      : `Memory is ${pct(value)} of the host's memory (the container has no limit) ${cond}`;
  }
}

/** Feeds one sample; the message is written only when an alert is raised or updated. */
type Sampler = (
  rule: StoredRule,
  scope: AlertScopeRef,
  value: number,
  message: () => string,
) => void;
