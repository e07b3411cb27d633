import { z } from 'zod';
import { alertRuleSchema } from './alert-rules.js';
import { lazySchema } from './lazy-schema.js';

export const alertStateSchema = lazySchema(() => z.enum(['open', 'snoozed', 'resolved']));
export type AlertState = z.infer<typeof alertStateSchema>;

export const alertSeveritySchema = lazySchema(() =>
  z.enum(['critical', 'error', 'warning', 'info']),
);
export type AlertSeverity = z.infer<typeof alertSeveritySchema>;

/**
 * The scope id of a container alert: host id and container name, so a container recreated
 * under its name keeps its alert and a new container never inherits an old id's.
 */
export const containerScopeId = (hostId: string, containerName: string): string =>
  `${hostId}:${containerName}`;

/**
 * The host id and the rest of a container scope id (a container name, or a short id in
 * scopes written before names were used); null when it is not `host_id:rest`.
 */
export function parseContainerScopeId(scopeId: string): { hostId: string; rest: string } | null {
  const at = scopeId.lastIndexOf(':');
  if (at <= 0 || at === scopeId.length - 1) return null;
  return { hostId: scopeId.slice(0, at), rest: scopeId.slice(at + 1) };
}

/**
 * An alert raised by a rule. One is open per rule and scope at a time; while
 * it stays open `last_seen`, `current_value` and `occurrences` move instead of new alerts.
 */
export const alertSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    message: z.string().nullable(),
    kind: z.string(),
    state: alertStateSchema,
    severity: alertSeveritySchema,
    scope_type: z.enum(['host', 'container']),
    scope_id: z.string(),
    host_id: z.string().nullable(),
    host_name: z.string().nullable(),
    container_name: z.string().nullable(),
    rule_id: z.string().nullable(),
    first_seen: z.string(),
    last_seen: z.string(),
    current_value: z.number().nullable(),
    threshold: z.number().nullable(),
    snoozed_until: z.string().nullable(),
    resolved_at: z.string().nullable(),
    resolved_reason: z.string().nullable(),
    /** How many times the condition was seen while this alert stayed open. */
    occurrences: z.number(),
    /** The rule's name when it was raised (the rule may be deleted since). */
    rule_name: z.string().nullable(),
  }),
);
export type Alert = z.infer<typeof alertSchema>;

export const MAX_ALERTS_PAGE_SIZE = 500;

/** GET /api/alerts/: a filtered, sorted page of alerts. */
export const alertListQuerySchema = lazySchema(() =>
  z.strictObject({
    state: alertStateSchema.optional(),
    severity: alertSeveritySchema.optional(),
    scope_type: z.enum(['host', 'container']).optional(),
    scope_id: z.string().max(200).optional(),
    rule_id: z.string().max(100).optional(),
    host_id: z.string().max(100).optional(),
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(MAX_ALERTS_PAGE_SIZE).default(20),
  }),
);
export type AlertListQuery = z.infer<typeof alertListQuerySchema>;

export const alertListResponseSchema = lazySchema(() =>
  z.object({
    alerts: z.array(alertSchema),
    total: z.number(),
    page: z.number(),
    page_size: z.number(),
  }),
);
export type AlertListResponse = z.infer<typeof alertListResponseSchema>;

/** GET /api/alerts/stats/: counts of every alert by state, and of unresolved ones by severity. */
export const alertStatsSchema = lazySchema(() =>
  z.object({
    by_state: z.record(alertStateSchema, z.number()),
    by_severity: z.record(alertSeveritySchema, z.number()),
  }),
);
export type AlertStats = z.infer<typeof alertStatsSchema>;

/** GET/POST /api/alerts/{id}/annotations. */
export const alertAnnotationSchema = lazySchema(() =>
  z.object({
    id: z.number(),
    /** The signed-in user who wrote it (a `user` in the body is ignored). */
    user: z.string(),
    text: z.string(),
    timestamp: z.string(),
  }),
);
export type AlertAnnotation = z.infer<typeof alertAnnotationSchema>;

export const alertAnnotationListSchema = lazySchema(() =>
  z.object({ annotations: z.array(alertAnnotationSchema) }),
);
export type AlertAnnotationList = z.infer<typeof alertAnnotationListSchema>;

export const alertAnnotationCreateSchema = lazySchema(() =>
  z.strictObject({
    text: z
      .string({ message: 'Annotation text is required' })
      .trim()
      .min(1, 'Annotation text must not be blank')
      .max(5000, 'Annotation text must be at most 5000 characters'),
    /** Accepted for compatibility; the author is the signed-in user. */
    user: z.string().max(200).optional(),
  }),
);
export type AlertAnnotationCreate = z.infer<typeof alertAnnotationCreateSchema>;

export const MANUAL_RESOLVE_REASON = 'Manually resolved';

/** POST /api/alerts/{id}/resolve; no body or no reason means 'Manually resolved'. */
export const alertResolveSchema = lazySchema(() =>
  z.strictObject({ reason: z.string().trim().max(500).optional() }).nullish(),
);
export type AlertResolve = z.infer<typeof alertResolveSchema>;

/** POST /api/alerts/{id}/snooze: up to a week. */
export const alertSnoozeSchema = lazySchema(() =>
  z.strictObject({
    duration_minutes: z
      .number({ message: 'duration_minutes is required' })
      .int('Must be a whole number of minutes')
      .min(1, 'Must be between 1 and 10080 minutes')
      .max(10_080, 'Must be between 1 and 10080 minutes'),
  }),
);
export type AlertSnooze = z.infer<typeof alertSnoozeSchema>;

export const alertParamsSchema = lazySchema(() =>
  z.strictObject({ id: z.string().min(1).max(100) }),
);

/**
 * What the engine hands the notify port when a notification is due: when an alert is
 * raised (after its duration and occurrences, outside its cooldown) and, for rules with
 * auto_resolve, when it resolves. Channels deliver it; the engine only decides when.
 */
export const notificationRequestSchema = lazySchema(() =>
  z.object({
    event: z.enum(['raised', 'resolved']),
    alert: alertSchema,
    rule: alertRuleSchema.pick({
      id: true,
      name: true,
      kind: true,
      severity: true,
      custom_template: true,
      notify_channels_json: true,
    }),
    /** Which of the settings' templates applies when the rule has no custom one. */
    template: z.enum(['metric', 'state_change', 'health', 'update']),
    /** Template variables known at the time: old/new state, exit code, restart count... */
    context: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
    at: z.string(),
  }),
);
export type NotificationRequest = z.infer<typeof notificationRequestSchema>;

/** GET /api/updates/summary: containers with an image update waiting. */
export const updatesSummarySchema = lazySchema(() =>
  z.object({
    total_updates: z.number(),
    /** Composite host_id:container_id keys. */
    containers_with_updates: z.array(z.string()),
  }),
);
export type UpdatesSummary = z.infer<typeof updatesSummarySchema>;
