import { z } from 'zod';

/** Every error answer of the API: the UI reads `detail`. */
export const errorBodySchema = z.object({ detail: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** ISO-8601 timestamp as sent over the wire. */
export const isoDateSchema = z.string();

/** A plain `{ ok: true }` acknowledgement for calls with nothing else to say. */
export const okSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof okSchema>;

/** For calls without a payload: nothing, or `{}`; anything else is refused. */
export const emptyBodySchema = z.strictObject({}).nullish();

/** A container is identified in the UI by `host_id:container_id`. */
export const containerKeySchema = z.string().regex(/^[^:]+:[^:]+$/, 'must be host_id:container_id');
export type ContainerKey = z.infer<typeof containerKeySchema>;

/** GET /api/health: answered without sign-in. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.enum(['ok', 'error']),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
