import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** A rule's kinds and scopes: what each watches, its category and its defaults. */
/** What a rule watches: a host or a container. */
export const alertScopeSchema = lazySchema(() =>
  z.enum(['host', 'container'], {
    message: 'Scope must be host or container',
  }),
);
export type AlertScope = z.infer<typeof alertScopeSchema>;

export const ALERT_RULE_KINDS = [
  'cpu_high',
  'memory_high',
  'disk_low',
  'container_unhealthy',
  'health_check_failed',
  'container_stopped',
  'container_restart',
  'host_down',
  'update_available',
  'update_completed',
  'update_failed',
] as const;
export const alertRuleKindSchema = lazySchema(() =>
  z.enum(ALERT_RULE_KINDS, { message: 'Unknown rule kind' }),
);
export type AlertRuleKind = z.infer<typeof alertRuleKindSchema>;

export const alertMetricSchema = lazySchema(() =>
  z.enum(['cpu_percent', 'memory_percent', 'disk_percent']),
);
export type AlertMetric = z.infer<typeof alertMetricSchema>;

export const alertOperatorSchema = lazySchema(() =>
  z.enum(['>=', '<=', '>', '<'], {
    message: 'Operator must be one of >=, <=, >, <',
  }),
);
export type AlertOperator = z.infer<typeof alertOperatorSchema>;

export type AlertRuleCategory = 'Performance' | 'Container State' | 'Host State' | 'Updates';

export interface AlertRuleKindInfo {
  category: AlertRuleCategory;
  /** The scopes a rule of this kind may watch; the first is the natural one. */
  scopes: readonly AlertScope[];
  /** Metric kinds compare a sampled value with a threshold; the others react to events. */
  metric: AlertMetric | null;
  threshold: number | null;
}

/** Every kind: its category, scopes and default metric and threshold. */
export const ALERT_RULE_KIND_INFO: Record<AlertRuleKind, AlertRuleKindInfo> = {
  cpu_high: info('Performance', ['host', 'container'], 'cpu_percent', 90),
  memory_high: info('Performance', ['host', 'container'], 'memory_percent', 90),
  disk_low: info('Performance', ['host'], 'disk_percent', 85),
  container_unhealthy: info('Container State', ['container'], null, null),
  health_check_failed: info('Container State', ['container'], null, null),
  container_stopped: info('Container State', ['container'], null, null),
  container_restart: info('Container State', ['container'], null, null),
  host_down: info('Host State', ['host'], null, null),
  update_available: info('Updates', ['container'], null, null),
  update_completed: info('Updates', ['container'], null, null),
  update_failed: info('Updates', ['container'], null, null),
};

function info(
  category: AlertRuleCategory,
  scopes: readonly AlertScope[],
  metric: AlertMetric | null,
  threshold: number | null,
): AlertRuleKindInfo {
  return { category, scopes, metric, threshold };
}

/** The kinds a scope offers, in the order the form lists them. */
export const kindsForScope = (scope: AlertScope): AlertRuleKind[] =>
  ALERT_RULE_KINDS.filter((k) => ALERT_RULE_KIND_INFO[k].scopes.includes(scope));

export const isMetricKind = (kind: AlertRuleKind): boolean =>
  ALERT_RULE_KIND_INFO[kind].metric !== null;

/** The update kinds have no timing: they fire once per update event. */
export const isUpdateKind = (kind: AlertRuleKind): boolean =>
  ALERT_RULE_KIND_INFO[kind].category === 'Updates';

export interface AlertRuleTiming {
  duration_seconds: number;
  occurrences: number;
  cooldown_seconds: number;
  clear_duration_seconds: number | null;
}

/** Timing defaults when a kind is chosen: metric kinds wait and repeat, the others fire at once. */
export const METRIC_RULE_TIMING: AlertRuleTiming = {
  duration_seconds: 300,
  occurrences: 3,
  cooldown_seconds: 300,
  clear_duration_seconds: null,
};
export const EVENT_RULE_TIMING: AlertRuleTiming = {
  duration_seconds: 0,
  occurrences: 1,
  cooldown_seconds: 15,
  clear_duration_seconds: 30,
};

/** What choosing a kind resets: timing, metric, operator and threshold. */
export function alertRuleDefaults(kind: AlertRuleKind) {
  const { metric, threshold } = ALERT_RULE_KIND_INFO[kind];
  return {
    ...(metric === null ? EVENT_RULE_TIMING : METRIC_RULE_TIMING),
    metric,
    threshold,
    operator: metric === null ? null : ('>=' as AlertOperator),
    clear_threshold: null,
  };
}

/** Changing scope sets suppress_during_updates: on for containers, off for hosts. */
export const suppressDuringUpdatesDefault = (scope: AlertScope): boolean => scope === 'container';
