import { z } from 'zod';

export const alertStateSchema = z.enum(['open', 'snoozed', 'resolved']);
export type AlertState = z.infer<typeof alertStateSchema>;

export const alertSeveritySchema = z.enum(['critical', 'error', 'warning', 'info']);
export type AlertSeverity = z.infer<typeof alertSeveritySchema>;

/** An alert raised by a rule (spec 3 §3). */
export const alertSchema = z.object({
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
});
export type Alert = z.infer<typeof alertSchema>;

export const MAX_ALERTS_PAGE_SIZE = 500;

/** GET /api/alerts/ (spec 3 §7). */
export const alertListQuerySchema = z.strictObject({
  state: alertStateSchema.optional(),
  severity: alertSeveritySchema.optional(),
  scope_type: z.enum(['host', 'container']).optional(),
  scope_id: z.string().max(200).optional(),
  rule_id: z.string().max(100).optional(),
  host_id: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_ALERTS_PAGE_SIZE).default(20),
});
export type AlertListQuery = z.infer<typeof alertListQuerySchema>;

export const alertListResponseSchema = z.object({
  alerts: z.array(alertSchema),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type AlertListResponse = z.infer<typeof alertListResponseSchema>;

/** GET /api/alerts/stats/: counts of every alert by state, and of unresolved ones by severity. */
export const alertStatsSchema = z.object({
  by_state: z.record(alertStateSchema, z.number()),
  by_severity: z.record(alertSeveritySchema, z.number()),
});
export type AlertStats = z.infer<typeof alertStatsSchema>;

/** GET /api/updates/summary: containers with an image update waiting. */
export const updatesSummarySchema = z.object({
  total_updates: z.number(),
  /** Composite host_id:container_id keys. */
  containers_with_updates: z.array(z.string()),
});
export type UpdatesSummary = z.infer<typeof updatesSummarySchema>;
