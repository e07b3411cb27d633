import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import {
  alertScopeSchema,
  alertRuleKindSchema,
  alertMetricSchema,
  alertOperatorSchema,
  ALERT_RULE_KIND_INFO,
  type AlertMetric,
} from './alert-rule-kinds.js';

export * from './alert-rule-kinds.js';

/**
 * Which hosts or containers a rule watches. `include` holds host ids (host selectors) or
 * container names (container selectors); `tags` matches any of them and, when present,
 * replaces individual picks; `should_run` keeps containers whose desired state is
 * should_run (true) or on_demand (false).
 */
export const alertSelectorSchema = lazySchema(() =>
  z.strictObject({
    include_all: z.boolean().default(false),
    include: z.array(z.string().trim().min(1).max(255)).max(1000).default([]),
    tags: z.array(z.string().trim().toLowerCase().min(1).max(50)).max(100).default([]),
    should_run: z.boolean().nullable().optional(),
  }),
);
export type AlertSelector = z.infer<typeof alertSelectorSchema>;

/**
 * A JSON field that also comes as its JSON text, as the reference API's clients send it
 * (`"{\"include_all\":true}"`): a string is parsed, then checked like the value itself.
 * Text that is not JSON is refused with `message`.
 */
const orJsonText = <T extends z.ZodType>(schema: T, message: string) =>
  z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message, input: value });
      return z.NEVER;
    }
  }, schema);

const CHANNEL_ID_MESSAGE = 'Notification channels must be channel ids (numbers)';
const positiveId = () =>
  z
    .number({ message: CHANNEL_ID_MESSAGE })
    .int(CHANNEL_ID_MESSAGE)
    .positive(CHANNEL_ID_MESSAGE)
    .max(Number.MAX_SAFE_INTEGER, CHANNEL_ID_MESSAGE);

/** A channel is named by its id, a number; written as a number or as its digits. */
export const channelIdSchema = lazySchema(() =>
  z.union(
    [
      positiveId(),
      z
        .string()
        .regex(/^\s*\d{1,15}\s*$/, CHANNEL_ID_MESSAGE)
        .transform(Number)
        .pipe(positiveId()),
    ],
    { message: CHANNEL_ID_MESSAGE },
  ),
);

const WEEK_SECONDS = 7 * 24 * 3600;
const seconds = (label: string, min: number) =>
  z
    .number({ message: `${label} must be a number` })
    .int(`${label} must be a whole number of seconds`)
    .min(min, `${label} must be at least ${min}`)
    .max(WEEK_SECONDS, `${label} must be at most ${WEEK_SECONDS} (a week)`);
const percent = (label: string) =>
  z
    .number({ message: `${label} must be a number` })
    .min(0, `${label} must be between 0 and 100`)
    .max(100, `${label} must be between 0 and 100`)
    // The form steps by 0.1; finer values are kept to that step.
    .transform((n) => Math.round(n * 10) / 10);

export const alertRuleSeveritySchema = lazySchema(() =>
  z.enum(['critical', 'error', 'warning', 'info'], {
    message: 'Severity must be critical, error, warning or info',
  }),
);

/** Every writable field of a rule with its bounds; create and update build on it. */
const alertRuleFields = lazySchema(() => ({
  name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(200),
  description: z.string().trim().max(1000).nullable(),
  scope: alertScopeSchema,
  kind: alertRuleKindSchema,
  enabled: z.boolean(),
  severity: alertRuleSeveritySchema,
  metric: alertMetricSchema.nullable(),
  threshold: percent('Threshold').nullable(),
  operator: alertOperatorSchema.nullable(),
  /** How long the condition must hold (metric kinds: at least 1; 0 fires at once otherwise). */
  duration_seconds: seconds('Duration', 0),
  /** Breaching samples needed within the duration window. */
  occurrences: z
    .number({ message: 'Occurrences must be a number' })
    .int('Occurrences must be a whole number')
    .min(1, 'Occurrences must be between 1 and 100')
    .max(100, 'Occurrences must be between 1 and 100'),
  clear_threshold: percent('Clear threshold').nullable(),
  clear_duration_seconds: seconds('Clear duration', 0).nullable(),
  cooldown_seconds: seconds('Cooldown', 0),
  host_selector_json: orJsonText(
    alertSelectorSchema.nullable(),
    'Hosts must be a selector object or its JSON text',
  ),
  container_selector_json: orJsonText(
    alertSelectorSchema.nullable(),
    'Containers must be a selector object or its JSON text',
  ),
  /** Notification channel ids (numbers, or their digits; a list or its JSON text). */
  notify_channels_json: orJsonText(
    z
      .array(channelIdSchema, { message: 'Notification channels must be a list of channel ids' })
      .max(50, 'Notification channels must be at most 50')
      // The same channel twice would send twice.
      .transform((ids) => [...new Set(ids)]),
    'Notification channels must be a list of channel ids or its JSON text',
  ),
  custom_template: z.string().max(2000).nullable(),
  auto_resolve: z.boolean(),
  suppress_during_updates: z.boolean(),
  /**
   * Metric kinds only: compare the mean over the duration window read from metrics history
   * instead of the samples Berth saw since it started, so a long window survives a restart.
   */
  look_back: z.boolean({ message: 'Look back must be true or false' }),
}));

/** POST /api/alerts/rules: name, scope, kind and severity are required; the rest default per kind. */
export const alertRuleCreateSchema = lazySchema(() =>
  z.strictObject({
    ...z.object(alertRuleFields).partial().shape,
    name: alertRuleFields.name,
    scope: alertRuleFields.scope,
    kind: alertRuleFields.kind,
    severity: alertRuleFields.severity,
  }),
);
export type AlertRuleCreate = z.infer<typeof alertRuleCreateSchema>;

/** PUT /api/alerts/rules/{id}: any subset; the merged rule is checked as a whole. */
export const alertRuleUpdateSchema = lazySchema(() => z.strictObject(alertRuleFields).partial());
export type AlertRuleUpdate = z.infer<typeof alertRuleUpdateSchema>;

/** PATCH /api/alerts/rules/{id}/toggle. */
export const alertRuleToggleSchema = lazySchema(() =>
  z.strictObject({
    enabled: z.boolean({ message: 'enabled must be true or false' }),
  }),
);
export type AlertRuleToggle = z.infer<typeof alertRuleToggleSchema>;

/** A stored rule. */
export const alertRuleSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    scope: alertScopeSchema,
    kind: alertRuleKindSchema,
    enabled: z.boolean(),
    severity: alertRuleSeveritySchema,
    metric: alertMetricSchema.nullable(),
    threshold: z.number().nullable(),
    operator: alertOperatorSchema.nullable(),
    duration_seconds: z.number(),
    occurrences: z.number(),
    clear_threshold: z.number().nullable(),
    clear_duration_seconds: z.number().nullable(),
    cooldown_seconds: z.number(),
    host_selector_json: alertSelectorSchema.nullable(),
    container_selector_json: alertSelectorSchema.nullable(),
    /** Channel ids, numbers like a channel's `id`. */
    notify_channels_json: z.array(z.number()),
    custom_template: z.string().nullable(),
    auto_resolve: z.boolean(),
    suppress_during_updates: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    /** Present (true) only on rules that compare the mean over their window from history. */
    look_back: z.boolean().optional(),
    /** disk_low only: selected hosts whose disk figure Berth cannot measure (never invented). */
    unavailable_hosts: z.array(z.object({ host_id: z.string(), host_name: z.string() })),
  }),
);
export type AlertRule = z.infer<typeof alertRuleSchema>;

export const alertRuleListSchema = lazySchema(() =>
  z.object({
    rules: z.array(alertRuleSchema),
    total: z.number(),
  }),
);
export type AlertRuleList = z.infer<typeof alertRuleListSchema>;

/** The fields of a whole rule that must agree with each other. */
export type AlertRuleShape = Pick<
  AlertRule,
  'scope' | 'kind' | 'metric' | 'duration_seconds' | 'clear_threshold' | 'threshold' | 'operator'
> & { look_back?: boolean | undefined; clear_duration_seconds?: number | null | undefined };

/** A look-back rule reads the 10 s history tier: at least a few of its points, at most what it keeps. */
export const LOOK_BACK_MIN_SECONDS = 30;
export const LOOK_BACK_MAX_SECONDS = 24 * 3600;

/**
 * Checks that go across fields, shared by the form and the server: the kind must suit the
 * scope, metric kinds need their own metric, a duration of at least one second and a clear
 * threshold on the good side of the threshold. Answers the field at fault and the message,
 * or null.
 */
export function alertRuleIssue(
  rule: AlertRuleShape,
  /** Hours the 10 s history tier keeps now (Settings → System), when known. */
  history10sHours?: number,
): { field: string; message: string } | null {
  const info = ALERT_RULE_KIND_INFO[rule.kind];
  if (!info.scopes.includes(rule.scope))
    return { field: 'kind', message: `Kind ${rule.kind} is not a ${rule.scope} rule kind` };
  if (rule.look_back === true) {
    const issue = lookBackIssue(rule, info.metric, history10sHours);
    if (issue !== null) return issue;
  }
  if (info.metric === null) return null;
  if (rule.metric !== null && rule.metric !== info.metric)
    return { field: 'metric', message: `${rule.kind} watches ${info.metric}` };
  if (rule.duration_seconds < 1)
    return { field: 'duration_seconds', message: 'Duration must be at least 1' };
  return clearThresholdIssue(rule);
}

/** Look-back needs a metric kind (the event kinds have no history) and a window the 10 s tier holds. */
function lookBackIssue(
  rule: AlertRuleShape,
  metric: AlertMetric | null,
  history10sHours: number | undefined,
): { field: string; message: string } | null {
  if (metric === null)
    return {
      field: 'look_back',
      message: `Look back needs a kind with metrics history (cpu_high, memory_high or disk_low), not ${rule.kind}`,
    };
  if (rule.duration_seconds < LOOK_BACK_MIN_SECONDS)
    return {
      field: 'duration_seconds',
      message: `Duration must be at least ${LOOK_BACK_MIN_SECONDS} for a look-back rule (history has a point every 10 s)`,
    };
  if (rule.duration_seconds > LOOK_BACK_MAX_SECONDS)
    return {
      field: 'duration_seconds',
      message: `Duration must be at most ${LOOK_BACK_MAX_SECONDS} for a look-back rule (the 10 s history keeps a day)`,
    };
  // A window longer than the 10 s points are kept is never covered: the rule would never raise,
  // or its alert never clear.
  if (history10sHours === undefined) return null;
  const kept = history10sHours * 3600;
  const keptText = `10-second history is kept ${history10sHours} hour${history10sHours === 1 ? '' : 's'}`;
  if (rule.duration_seconds > kept)
    return {
      field: 'duration_seconds',
      message: `Duration must be at most ${kept} for a look-back rule (the ${keptText}: Settings → System)`,
    };
  if ((rule.clear_duration_seconds ?? 0) > kept)
    return {
      field: 'clear_duration_seconds',
      message: `Clear duration must be at most ${kept} for a look-back rule (the ${keptText}: Settings → System)`,
    };
  return null;
}

/** The longest window a look-back rule reads (its duration or its clear duration), seconds. */
export const lookBackWindowSeconds = (rule: AlertRuleShape): number =>
  Math.max(rule.duration_seconds, rule.clear_duration_seconds ?? 0);

/**
 * An alert clears once the value stops breaching the clear threshold, so that threshold
 * must sit on the good side of the raise threshold: at or below it for an above rule
 * (>=, >), at or above it for a below rule (<=, <). On the wrong side the same value
 * would raise and clear the alert at once.
 */
function clearThresholdIssue(rule: AlertRuleShape): { field: string; message: string } | null {
  const { clear_threshold: clear, threshold, operator } = rule;
  if (clear === null || threshold === null || operator === null) return null;
  const above = operator === '>=' || operator === '>';
  if (above ? clear <= threshold : clear >= threshold) return null;
  return {
    field: 'clear_threshold',
    message: `Clear threshold must be at or ${above ? 'below' : 'above'} the threshold (${threshold}) for a ${operator} rule`,
  };
}

/** GET /api/alerts/disk-availability: which hosts a disk_low rule can measure, and why not. */
export const diskAvailabilitySchema = lazySchema(() =>
  z.object({
    hosts: z.array(
      z.object({
        host_id: z.string(),
        host_name: z.string(),
        available: z.boolean(),
        /** Why the figure is missing, e.g. 'The disk figure is not available for this host'. */
        reason: z.string().nullable(),
      }),
    ),
  }),
);
export type DiskAvailability = z.infer<typeof diskAvailabilitySchema>;
