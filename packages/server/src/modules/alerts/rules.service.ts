import { randomUUID } from 'node:crypto';
import {
  alertRuleDefaults,
  alertRuleIssue,
  lookBackWindowSeconds,
  suppressDuringUpdatesDefault,
  type AlertRule,
  type AlertRuleCreate,
  type AlertRuleList,
  type AlertRuleUpdate,
  type DiskAvailability,
} from '@berth/contracts';
import { badRequest, notFound } from '../../platform/http-errors.js';
import type { EventInput } from '../events/index.js';
import type { Fleet } from '../monitor/index.js';
import { matchesHost, type HostFacts } from './engine/selectors.js';
import type { RulesStore, StoredRule } from './rules.store.js';

export interface RulesDeps {
  store: RulesStore;
  fleet: Fleet;
  hostDirectory: () => Promise<HostFacts[]>;
  record: (event: EventInput) => Promise<unknown>;
  /** The engine re-reads the enabled rules after every change. */
  changed: (rules: StoredRule[]) => void;
  now?: () => number;
  /** Hours the 10 s history tier keeps now: a look-back window must fit in it. */
  history10sHours?: () => number;
}

/**
 * Alert rules: defaults per kind filled in, cross-field checks (kind for the scope, metric
 * timing), selectors that name existing hosts; every change reaches the engine at once.
 */
export class RulesService {
  private rules: StoredRule[] = [];

  constructor(private readonly deps: RulesDeps) {}

  async load(): Promise<StoredRule[]> {
    this.rules = await this.deps.store.list();
    return this.rules;
  }

  /** The enabled look-back rule reading the longest window, with that window in seconds. */
  private longestLookBack(): { name: string; seconds: number } | null {
    let longest: { name: string; seconds: number } | null = null;
    for (const rule of this.rules) {
      if (rule.look_back !== true || !rule.enabled) continue;
      const seconds = lookBackWindowSeconds(rule);
      if (longest === null || seconds > longest.seconds) longest = { name: rule.name, seconds };
    }
    return longest;
  }

  /**
   * Why the 10 s history tier may not be kept only `hours`: an enabled look-back rule reads a
   * longer window, which would never be covered again. Null when nothing stands in the way.
   */
  history10sIssue(hours: number): { field: string; message: string } | null {
    const longest = this.longestLookBack();
    if (longest === null || longest.seconds <= hours * 3600) return null;
    const needed = Math.ceil(longest.seconds / 3600);
    return {
      field: 'history_10s_retention_hours',
      message: `Must be at least ${needed} hour${needed === 1 ? '' : 's'}: look-back rule "${longest.name}" reads ${longest.seconds} seconds of it`,
    };
  }

  all(): StoredRule[] {
    return this.rules;
  }

  async list(): Promise<AlertRuleList> {
    const rules = await Promise.all(this.rules.map((r) => this.withDiskNote(r)));
    return { rules, total: rules.length };
  }

  async get(id: string): Promise<AlertRule> {
    return this.withDiskNote(this.orThrow(id));
  }

  async create(body: AlertRuleCreate): Promise<AlertRule> {
    const at = this.at();
    const rule: StoredRule = {
      description: null,
      enabled: true,
      custom_template: null,
      host_selector_json: null,
      container_selector_json: null,
      notify_channels_json: [],
      auto_resolve: true,
      suppress_during_updates: suppressDuringUpdatesDefault(body.scope),
      ...alertRuleDefaults(body.kind),
      ...stripUndefined(body),
      name: body.name,
      scope: body.scope,
      kind: body.kind,
      severity: body.severity,
      id: randomUUID(),
      created_at: at,
      updated_at: at,
    };
    await this.check(rule);
    await this.deps.store.insert(rule);
    await this.saved(rule, 'rule_created', `Alert rule created: ${rule.name}`);
    return this.withDiskNote(rule);
  }

  async update(id: string, body: AlertRuleUpdate): Promise<AlertRule> {
    const before = this.orThrow(id);
    const kindChanged = body.kind !== undefined && body.kind !== before.kind;
    const rule: StoredRule = {
      ...before,
      // A new kind brings its own defaults, unless the body says otherwise.
      ...(kindChanged && body.kind !== undefined ? alertRuleDefaults(body.kind) : {}),
      ...stripUndefined(body),
      updated_at: this.at(),
    };
    await this.check(rule);
    await this.deps.store.replace(rule);
    await this.saved(rule, 'rule_updated', `Alert rule updated: ${rule.name}`);
    return this.withDiskNote(rule);
  }

  async toggle(id: string, enabled: boolean): Promise<AlertRule> {
    return this.update(id, { enabled });
  }

  /** The rule goes; its alerts stay, with the rule's name. */
  async delete(id: string): Promise<void> {
    const rule = this.orThrow(id);
    await this.deps.store.delete(id);
    this.rules = this.rules.filter((r) => r.id !== id);
    this.deps.changed(this.rules);
    await this.deps.record(ruleEvent(rule, 'rule_deleted', `Alert rule deleted: ${rule.name}`));
  }

  /** The names of the rules that notify a channel. */
  usingChannel(channelId: number): string[] {
    return this.rules.filter((r) => r.notify_channels_json.includes(channelId)).map((r) => r.name);
  }

  /** A channel being deleted leaves every rule that notified it. */
  async forgetChannel(channelId: number): Promise<void> {
    const using = this.rules.filter((r) => r.notify_channels_json.includes(channelId));
    if (using.length === 0) return;
    const at = this.at();
    const changed = using.map((r) => ({
      ...r,
      notify_channels_json: r.notify_channels_json.filter((id) => id !== channelId),
      updated_at: at,
    }));
    await this.deps.store.replaceAll(changed);
    const byId = new Map(changed.map((r) => [r.id, r]));
    this.rules = this.rules.map((r) => byId.get(r.id) ?? r);
    this.deps.changed(this.rules);
  }

  /** Which hosts a disk_low rule can measure (only a local engine whose data root is visible). */
  async diskAvailability(): Promise<DiskAvailability> {
    const hosts = await this.deps.hostDirectory();
    return {
      hosts: await Promise.all(
        hosts.map(async (h) => {
          const d = await this.deps.fleet.engineDisk(h.id);
          const available = 'percent' in d;
          return {
            host_id: h.id,
            host_name: h.name,
            available,
            reason: available ? null : d.unavailable,
          };
        }),
      ),
    };
  }

  private async saved(rule: StoredRule, type: string, title: string): Promise<void> {
    this.rules = [...this.rules.filter((r) => r.id !== rule.id), rule];
    this.deps.changed(this.rules);
    await this.deps.record(ruleEvent(rule, type, title));
  }

  private async check(rule: StoredRule): Promise<void> {
    // false is the same as absent: the rule answers as rules did before look-back existed.
    if (rule.look_back === false) delete rule.look_back;
    // Only an enabled rule is bound by what history keeps: a rule can always be turned off.
    const issue = alertRuleIssue(rule, rule.enabled ? this.deps.history10sHours?.() : undefined);
    if (issue !== null) throw badRequest(`${issue.field}: ${issue.message}`);
    const included = rule.host_selector_json?.include ?? [];
    if (included.length === 0) return;
    const known = new Set((await this.deps.hostDirectory()).map((h) => h.id));
    const missing = included.find((id) => !known.has(id));
    if (missing !== undefined) throw badRequest(`host_selector_json: Unknown host: ${missing}`);
  }

  private async withDiskNote(rule: StoredRule): Promise<AlertRule> {
    if (rule.kind !== 'disk_low') return { ...rule, unavailable_hosts: [] };
    const hosts = (await this.deps.hostDirectory()).filter((h) => matchesHost(rule, h));
    const unavailable = [];
    for (const h of hosts)
      if (!('percent' in (await this.deps.fleet.engineDisk(h.id))))
        unavailable.push({ host_id: h.id, host_name: h.name });
    return { ...rule, unavailable_hosts: unavailable };
  }

  private orThrow(id: string): StoredRule {
    const rule = this.rules.find((r) => r.id === id);
    if (rule === undefined) throw notFound('Alert rule not found');
    return rule;
  }

  private at(): string {
    return new Date(this.deps.now?.() ?? Date.now()).toISOString();
  }
}

const ruleEvent = (rule: StoredRule, event_type: string, title: string): EventInput => ({
  severity: 'info',
  category: 'alert',
  event_type,
  title,
  message: `${rule.kind} rule for ${rule.scope}s`,
  triggered_by: 'user',
});

/** Keys the body left out keep their current value. */
function stripUndefined<T extends object>(body: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
