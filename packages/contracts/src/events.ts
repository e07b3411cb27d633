import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

export const eventSeveritySchema = lazySchema(() =>
  z.enum(['critical', 'error', 'warning', 'info', 'debug']),
);
export type EventSeverity = z.infer<typeof eventSeveritySchema>;

export const eventCategorySchema = lazySchema(() =>
  z.enum([
    'container',
    'host',
    'system',
    'alert',
    'notification',
    'user',
    'network',
    'volume',
    'health_check',
  ]),
);
export type EventCategory = z.infer<typeof eventCategorySchema>;

/** An entry of the event log. `container_id` is the composite host_id:id key. */
export const eventSchema = lazySchema(() =>
  z.object({
    id: z.number(),
    timestamp: z.string(),
    severity: eventSeveritySchema,
    category: eventCategorySchema,
    event_type: z.string(),
    title: z.string(),
    message: z.string().nullable(),
    host_id: z.string().nullable(),
    host_name: z.string().nullable(),
    container_id: z.string().nullable(),
    container_name: z.string().nullable(),
    old_state: z.string().nullable(),
    new_state: z.string().nullable(),
    correlation_id: z.string().nullable(),
    triggered_by: z.string().nullable(),
  }),
);
export type BerthEvent = z.infer<typeof eventSchema>;

/** A query parameter that may be repeated (`?category=a&category=b`). */
const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? (v as unknown[]) : [v]),
    z.array(item).max(200),
  );

const isoDate = lazySchema(() =>
  z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'Invalid date; use ISO 8601'),
);

export const MAX_EVENTS_LIMIT = 1000;

/** GET /api/events. `hours` 0 means all time; it overrides start_date. */
export const eventQuerySchema = lazySchema(() =>
  z.strictObject({
    category: repeated(eventCategorySchema),
    severity: repeated(eventSeveritySchema),
    host_id: repeated(z.string().max(100)),
    container_id: repeated(z.string().max(200)),
    event_type: z.string().max(100).optional(),
    container_name: z.string().max(200).optional(),
    start_date: isoDate.optional(),
    end_date: isoDate.optional(),
    hours: z.coerce
      .number()
      .min(0)
      .max(24 * 365 * 10)
      .optional(),
    correlation_id: z.string().max(200).optional(),
    /** Text, or a regular expression when it parses as one. */
    search: z.string().max(500).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_EVENTS_LIMIT).default(100),
    offset: z.coerce.number().int().min(0).default(0),
    sort_order: z.enum(['desc', 'asc']).default('desc'),
  }),
);
export type EventQuery = z.infer<typeof eventQuerySchema>;

export const eventsResponseSchema = lazySchema(() =>
  z.object({
    events: z.array(eventSchema),
    total_count: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
);
export type EventsResponse = z.infer<typeof eventsResponseSchema>;

export const eventLimitQuerySchema = lazySchema(() =>
  z.strictObject({
    limit: z.coerce.number().int().min(1).max(MAX_EVENTS_LIMIT).default(50),
  }),
);
