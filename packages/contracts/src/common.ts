// Before any schema: zod's CSP setting in a browser (a module may be loaded without index.ts).
import './browser-csp.js';
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Every error answer of the API: the UI reads `detail`. */
export const errorBodySchema = lazySchema(() => z.object({ detail: z.string() }));
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** ISO-8601 timestamp as sent over the wire. */
export const isoDateSchema = lazySchema(() => z.string());

/** A plain `{ ok: true }` acknowledgement for calls with nothing else to say. */
export const okSchema = lazySchema(() => z.object({ ok: z.literal(true) }));
export type Ok = z.infer<typeof okSchema>;

/** For calls without a payload: nothing, or `{}`; anything else is refused. */
export const emptyBodySchema = lazySchema(() => z.strictObject({}).nullish());

/** A container is identified in the UI by `host_id:container_id`. */
export const containerKeySchema = lazySchema(() =>
  z.string().regex(/^[^:]+:[^:]+$/, 'must be host_id:container_id'),
);
export type ContainerKey = z.infer<typeof containerKeySchema>;

/** Engines name containers by 64-character ids; Berth, its API and its UI by the first 12. */
export const SHORT_ID_LENGTH = 12;

/** The key of one container across hosts: `host_id:short_container_id`. */
export function containerKey(hostId: string, containerId: string): ContainerKey {
  return `${hostId}:${containerId.slice(0, SHORT_ID_LENGTH)}`;
}

/** The key of a container as the API shows it (its `host_id` and `id`). */
export const containerKeyOf = (c: {
  readonly host_id: string;
  readonly id: string;
}): ContainerKey => containerKey(c.host_id, c.id);

/** The host and short container id of a key; null when it is not `host_id:container_id`. */
export function parseContainerKey(key: string): { hostId: string; containerId: string } | null {
  const at = key.lastIndexOf(':');
  if (at <= 0 || at === key.length - 1) return null;
  return { hostId: key.slice(0, at), containerId: key.slice(at + 1, at + 1 + SHORT_ID_LENGTH) };
}

/**
 * The in-memory key of a container by host and name, for state that must follow a container
 * recreated under its name (its settings, restart budget, health check, an update under way).
 * NUL cannot occur in a host id or a container name, so two pairs never share a key.
 */
export const containerNameKey = (hostId: string, containerName: string): string =>
  `${hostId}\u0000${containerName}`;

/** GET /api/health: answered without sign-in. */
export const healthResponseSchema = lazySchema(() =>
  z.object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    database: z.enum(['ok', 'error']),
  }),
);
export type HealthResponse = z.infer<typeof healthResponseSchema>;
