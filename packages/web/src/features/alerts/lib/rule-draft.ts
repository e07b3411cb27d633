import {
  ALERT_RULE_KIND_INFO,
  alertRuleDefaults,
  alertRuleIssue,
  isMetricKind,
  isUpdateKind,
  kindsForScope,
  suppressDuringUpdatesDefault,
  type AlertOperator,
  type AlertRule,
  type AlertRuleCreate,
  type AlertRuleKind,
  type AlertScope,
  type AlertSelector,
} from '@berth/contracts';

/** The form's copy of a rule: numbers as typed text, so a half-typed value is not lost. */
export interface RuleDraft {
  name: string;
  description: string;
  scope: AlertScope;
  kind: AlertRuleKind;
  enabled: boolean;
  severity: AlertRule['severity'];
  operator: AlertOperator;
  threshold: string;
  duration_seconds: string;
  occurrences: string;
  cooldown_seconds: string;
  clear_threshold: string;
  clear_duration_seconds: string;
  /** Hosts (host rules) or container names (container rules). */
  include_all: boolean;
  include: string[];
  tags: string[];
  /** Container rules: the run mode; null = all. */
  should_run: boolean | null;
  /** Notification channel ids. */
  channels: number[];
  custom_template: string;
  auto_resolve: boolean;
  suppress_during_updates: boolean;
  /** Metric kinds: compare the mean over the duration from metrics history. */
  look_back: boolean;
}

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** A kind's timing, metric and threshold defaults, as draft text. */
function kindDefaults(kind: AlertRuleKind) {
  const d = alertRuleDefaults(kind);
  return {
    operator: d.operator ?? '>=',
    threshold: text(d.threshold),
    duration_seconds: text(d.duration_seconds),
    occurrences: text(d.occurrences),
    cooldown_seconds: text(d.cooldown_seconds),
    clear_threshold: '',
    clear_duration_seconds: text(d.clear_duration_seconds),
  };
}

export function newDraft(): RuleDraft {
  const scope: AlertScope = 'container';
  const kind = kindsForScope(scope)[0] ?? 'cpu_high';
  return {
    name: '',
    description: '',
    scope,
    kind,
    enabled: true,
    severity: 'warning',
    ...kindDefaults(kind),
    include_all: true,
    include: [],
    tags: [],
    should_run: null,
    channels: [],
    custom_template: '',
    auto_resolve: true,
    suppress_during_updates: suppressDuringUpdatesDefault(scope),
    look_back: false,
  };
}

export function draftOf(rule: AlertRule): RuleDraft {
  const selector = (rule.scope === 'host'
    ? rule.host_selector_json
    : rule.container_selector_json) ?? {
    include_all: true,
    include: [],
    tags: [],
  };
  return {
    name: rule.name,
    description: rule.description ?? '',
    scope: rule.scope,
    kind: rule.kind,
    enabled: rule.enabled,
    severity: rule.severity,
    operator: rule.operator ?? '>=',
    threshold: text(rule.threshold),
    duration_seconds: text(rule.duration_seconds),
    occurrences: text(rule.occurrences),
    cooldown_seconds: text(rule.cooldown_seconds),
    clear_threshold: text(rule.clear_threshold),
    clear_duration_seconds: text(rule.clear_duration_seconds),
    include_all: selector.include_all,
    include: selector.include,
    tags: selector.tags,
    should_run: selector.should_run ?? null,
    channels: rule.notify_channels_json,
    custom_template: rule.custom_template ?? '',
    auto_resolve: rule.auto_resolve,
    suppress_during_updates: rule.suppress_during_updates,
    look_back: rule.look_back === true,
  };
}

/** A new scope resets tags and suppress_during_updates, and an unfit kind. */
export function withScope(d: RuleDraft, scope: AlertScope): RuleDraft {
  if (scope === d.scope) return d;
  const kinds = kindsForScope(scope);
  const kind = kinds.includes(d.kind) ? d.kind : (kinds[0] ?? d.kind);
  const next: RuleDraft = {
    ...d,
    scope,
    tags: [],
    include: [],
    include_all: true,
    should_run: null,
    suppress_during_updates: suppressDuringUpdatesDefault(scope),
  };
  return kind === d.kind ? next : withKind(next, kind);
}

/** A new kind resets its defaults. */
export function withKind(d: RuleDraft, kind: AlertRuleKind): RuleDraft {
  return { ...d, kind, ...kindDefaults(kind), look_back: d.look_back && isMetricKind(kind) };
}

export const KIND_LABEL: Record<AlertRuleKind, string> = {
  cpu_high: 'CPU usage high',
  memory_high: 'Memory usage high',
  disk_low: 'Disk space low',
  container_unhealthy: 'Container unhealthy (native health check)',
  health_check_failed: 'HTTP health check failed',
  container_stopped: 'Container stopped',
  container_restart: 'Container restarted',
  host_down: 'Host down',
  update_available: 'Update available',
  update_completed: 'Update completed',
  update_failed: 'Update failed',
};

export const METRIC_LABEL = {
  cpu_percent: 'CPU %',
  memory_percent: 'Memory %',
  disk_percent: 'Disk used %',
} as const;

/** The kinds of a scope, grouped by category, as the kind picker lists them. */
export function kindGroups(scope: AlertScope): { category: string; kinds: AlertRuleKind[] }[] {
  const groups: { category: string; kinds: AlertRuleKind[] }[] = [];
  for (const kind of kindsForScope(scope)) {
    const category = ALERT_RULE_KIND_INFO[kind].category;
    const group = groups.find((g) => g.category === category);
    if (group === undefined) groups.push({ category, kinds: [kind] });
    else group.kinds.push(kind);
  }
  return groups;
}

type Checked = { body: AlertRuleCreate; error: null } | { body: null; error: string };

const num = (value: string) => (value.trim() === '' ? NaN : Number(value));

/** The form's bounds, then the body of the save call. */
export function checkDraft(d: RuleDraft): Checked {
  const fail = (error: string): Checked => ({ body: null, error });
  if (d.name.trim() === '') return fail('Name is required');
  const metric = isMetricKind(d.kind);
  const timed = !isUpdateKind(d.kind);
  const threshold = num(d.threshold);
  if (metric && !(threshold >= 0 && threshold <= 100))
    return fail('Threshold must be between 0 and 100');
  const clearThreshold = d.clear_threshold.trim() === '' ? null : num(d.clear_threshold);
  if (metric && clearThreshold !== null && !(clearThreshold >= 0 && clearThreshold <= 100))
    return fail('Clear threshold must be between 0 and 100');
  const duration = num(d.duration_seconds);
  const occurrences = num(d.occurrences);
  const cooldown = num(d.cooldown_seconds);
  const clearDuration =
    d.clear_duration_seconds.trim() === '' ? null : num(d.clear_duration_seconds);
  if (timed) {
    if (!Number.isInteger(duration) || duration < (metric ? 1 : 0))
      return fail(`Duration must be at least ${metric ? 1 : 0}`);
    if (!Number.isInteger(occurrences) || occurrences < 1 || occurrences > 100)
      return fail('Occurrences must be between 1 and 100');
    if (!Number.isInteger(cooldown) || cooldown < 0) return fail('Cooldown must be at least 0');
  }
  if (clearDuration !== null && (!Number.isInteger(clearDuration) || clearDuration < 0))
    return fail('Clear duration must be at least 0');
  const defaults = alertRuleDefaults(d.kind);
  const selector: AlertSelector = {
    include_all: d.tags.length === 0 && d.include_all,
    // Tags replace individual picks; container names apply only in run mode all.
    include:
      d.tags.length > 0 || d.include_all || (d.scope === 'container' && d.should_run !== null)
        ? []
        : d.include,
    tags: d.tags,
    ...(d.scope === 'container' && d.should_run !== null ? { should_run: d.should_run } : {}),
  };
  const body: AlertRuleCreate = {
    name: d.name.trim(),
    description: d.description.trim() === '' ? null : d.description.trim(),
    scope: d.scope,
    kind: d.kind,
    enabled: d.enabled,
    severity: d.severity,
    cooldown_seconds: timed ? cooldown : defaults.cooldown_seconds,
    duration_seconds: timed ? duration : defaults.duration_seconds,
    occurrences: timed ? occurrences : defaults.occurrences,
    auto_resolve: d.auto_resolve,
    metric: defaults.metric,
    threshold: metric ? threshold : null,
    operator: metric ? d.operator : null,
    clear_threshold: metric ? clearThreshold : null,
    clear_duration_seconds: clearDuration,
    host_selector_json: d.scope === 'host' ? selector : null,
    container_selector_json: d.scope === 'container' ? selector : null,
    notify_channels_json: d.channels,
    custom_template: d.custom_template.trim() === '' ? null : d.custom_template,
    suppress_during_updates: d.suppress_during_updates,
    look_back: metric && d.look_back,
  };
  const issue = alertRuleIssue({
    scope: d.scope,
    kind: d.kind,
    metric: defaults.metric,
    duration_seconds: body.duration_seconds ?? 0,
    clear_threshold: body.clear_threshold ?? null,
    threshold: body.threshold ?? null,
    operator: body.operator ?? null,
    look_back: body.look_back,
  });
  if (issue !== null) return fail(issue.message);
  return { body, error: null };
}
