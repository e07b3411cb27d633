import { z } from 'zod';
import { containerTagSchema, desiredStateSchema, floatingTagModeSchema } from './containers.js';
import { lazySchema } from './lazy-schema.js';

export const batchJobStatusSchema = lazySchema(() =>
  z.enum(['queued', 'running', 'completed', 'failed']),
);
export type BatchJobStatus = z.infer<typeof batchJobStatusSchema>;
export const batchItemStatusSchema = lazySchema(() =>
  z.enum(['queued', 'running', 'completed', 'failed', 'skipped']),
);
export type BatchItemStatus = z.infer<typeof batchItemStatusSchema>;

/** Bulk actions on containers. */
export const batchActionSchema = lazySchema(() =>
  z.enum([
    'start',
    'stop',
    'restart',
    'add-tags',
    'remove-tags',
    'set-auto-restart',
    'set-auto-update',
    'set-desired-state',
    'check-updates',
    /** Apply the update each container's check found (policies apply; warn needs the UI). */
    'update',
  ]),
);
export type BatchAction = z.infer<typeof batchActionSchema>;

export const MAX_BATCH_ITEMS = 1000;

const compositeKey = lazySchema(() =>
  z
    .string()
    .max(200)
    .regex(/^[^:]+:[0-9a-f]{12,64}$/, 'Expected host_id:container_id'),
);

const paramsFor = lazySchema(
  () =>
    ({
      'add-tags': z.strictObject({
        tags: z.array(containerTagSchema).min(1, 'Please enter at least one tag').max(50),
      }),
      'remove-tags': z.strictObject({
        tags: z.array(containerTagSchema).min(1, 'Please enter at least one tag').max(50),
      }),
      'set-auto-restart': z.strictObject({ enabled: z.boolean({ message: 'Required' }) }),
      'set-auto-update': z.strictObject({
        enabled: z.boolean({ message: 'Required' }),
        floating_tag_mode: floatingTagModeSchema.default('exact'),
      }),
      'set-desired-state': z.strictObject({
        desired_state: desiredStateSchema.exclude(['unspecified']),
      }),
    }) as const,
);

/** POST /api/batch. `params` is checked against what the action needs. */
export const batchRequestSchema = lazySchema(() =>
  z
    .strictObject({
      scope: z.literal('container'),
      action: batchActionSchema,
      ids: z.array(compositeKey).min(1, 'Select at least one container').max(MAX_BATCH_ITEMS),
      params: z.record(z.string(), z.unknown()).optional(),
    })
    .transform((body, ctx) => {
      const schema =
        body.action in paramsFor ? paramsFor[body.action as keyof typeof paramsFor] : null;
      if (schema === null) return { ...body, ids: [...new Set(body.ids)], params: {} };
      const parsed = schema.safeParse(body.params ?? {});
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: ['params', ...issue.path] });
        return z.NEVER;
      }
      return { ...body, ids: [...new Set(body.ids)], params: parsed.data };
    }),
);
export type BatchRequest = z.infer<typeof batchRequestSchema>;
export type BatchRequestInput = z.input<typeof batchRequestSchema>;

export const batchItemSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    host_id: z.string(),
    host_name: z.string().nullable(),
    container_id: z.string(),
    container_name: z.string().nullable(),
    status: batchItemStatusSchema,
    message: z.string().nullable(),
  }),
);
export type BatchItem = z.infer<typeof batchItemSchema>;

export const batchJobSummarySchema = lazySchema(() =>
  z.object({
    job_id: z.string(),
    status: batchJobStatusSchema,
    action: batchActionSchema,
    total_items: z.number(),
    completed_items: z.number(),
    success_items: z.number(),
    error_items: z.number(),
    skipped_items: z.number(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
  }),
);
export type BatchJobSummary = z.infer<typeof batchJobSummarySchema>;

export const batchJobSchema = lazySchema(() =>
  batchJobSummarySchema.extend({ items: z.array(batchItemSchema) }),
);
export type BatchJob = z.infer<typeof batchJobSchema>;

export const batchCreatedSchema = lazySchema(() => z.object({ job_id: z.string() }));
