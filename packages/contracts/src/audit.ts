import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Where an audited change came from: a request, or work Berth did for someone. */
export const auditSourceSchema = lazySchema(() => z.enum(['api', 'batch', 'schedule', 'mqtt']));
export type AuditSource = z.infer<typeof auditSourceSchema>;

/**
 * One row of the audit log: who (a user, the user behind an API key, or `system` / `mqtt`),
 * what and on which target, when, from where, and how it ended. Rows are never changed.
 */
export const auditEntrySchema = lazySchema(() =>
  z.object({
    id: z.number(),
    timestamp: z.string(),
    /** The user, the attempted username of a sign-in, `system` or `mqtt`; null when unknown. */
    actor: z.string().nullable(),
    api_key: z.string().nullable(),
    source: auditSourceSchema,
    /** Readable, e.g. `container.restart`, `hosts.create`, `auth.login`. */
    action: z.string(),
    host_id: z.string().nullable(),
    host_name: z.string().nullable(),
    container_id: z.string().nullable(),
    container_name: z.string().nullable(),
    /** Any other target the change named, e.g. `rules 4`. */
    target: z.string().nullable(),
    address: z.string().nullable(),
    user_agent: z.string().nullable(),
    /** The HTTP status answered; null for work outside a request. */
    status: z.number().nullable(),
    ok: z.boolean(),
    error: z.string().nullable(),
    duration_ms: z.number().nullable(),
  }),
);
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const isoDate = lazySchema(() =>
  z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'Invalid date; use ISO 8601'),
);

export const MAX_AUDIT_LIMIT = 1000;
/** Rows one CSV export holds at most, newest first. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

/** The filters of GET /api/audit and its CSV export. */
export const auditFilterShape = lazySchema(() => ({
  /** A user or API key name, exactly. */
  user: z.string().trim().max(100).optional(),
  /** An action or its start (`container.` for every container action). */
  action: z.string().trim().max(200).optional(),
  /** Text within a host, container or other target's name or id. */
  target: z.string().trim().max(200).optional(),
  result: z.enum(['ok', 'error']).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
}));

export const auditExportQuerySchema = lazySchema(() => z.strictObject(auditFilterShape));
export type AuditFilter = z.infer<typeof auditExportQuerySchema>;

export const auditQuerySchema = lazySchema(() =>
  z.strictObject({
    ...auditFilterShape,
    limit: z.coerce.number().int().min(1).max(MAX_AUDIT_LIMIT).default(100),
    offset: z.coerce.number().int().min(0).default(0),
  }),
);
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditResponseSchema = lazySchema(() =>
  z.object({
    entries: z.array(auditEntrySchema),
    total_count: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
);
export type AuditResponse = z.infer<typeof auditResponseSchema>;
