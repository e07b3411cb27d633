import { z } from 'zod';
import { parseEngineUrl } from './engine-address.js';
import { lazySchema } from './lazy-schema.js';

export const hostStatusSchema = lazySchema(() =>
  z.enum(['online', 'offline', 'degraded', 'error']),
);
export type HostStatus = z.infer<typeof hostStatusSchema>;

/** Live host aggregates. */
export const hostStatsSchema = lazySchema(() =>
  z.object({
    cpu_percent: z.number(),
    mem_percent: z.number(),
    mem_bytes: z.number(),
    net_bytes_per_sec: z.number(),
  }),
);
export type HostStats = z.infer<typeof hostStatsSchema>;

/** Ring-buffer history series, oldest first. */
export const sparklinesSchema = lazySchema(() =>
  z.object({
    cpu: z.array(z.number()),
    mem: z.array(z.number()),
    net: z.array(z.number()),
  }),
);
export type Sparklines = z.infer<typeof sparklinesSchema>;

/**
 * Where daemon_started_at comes from: the engine process's start on this machine, or (for an
 * engine elsewhere) its oldest running container's start, a lower bound.
 */
export const hostUptimeSourceSchema = lazySchema(() =>
  z.enum(['daemon_process', 'oldest_container']),
);
export type HostUptimeSource = z.infer<typeof hostUptimeSourceSchema>;

/**
 * The URL of a host whose engine an agent carries: no address, the agent's id (decision 021).
 * Such a host is made by enrolling its agent, never typed in; its URL never changes.
 */
export const AGENT_URL_SCHEME = 'agent://';
export const agentHostUrl = (agentId: string) => `${AGENT_URL_SCHEME}${agentId}`;
export const isAgentHostUrl = (url: string) => url.trim().startsWith(AGENT_URL_SCHEME);
const AGENT_HOST_URL = /^agent:\/\/[A-Za-z0-9-]{1,100}$/;

/**
 * How Berth reaches a host's engine, for telling them apart on screen: a unix socket, plain
 * TCP, TLS, or an agent, with what the agent said of itself when it last connected.
 */
export const hostConnectionSchema = lazySchema(() =>
  z.object({
    type: z.enum(['socket', 'tcp', 'tls', 'agent']),
    agent: z
      .object({
        version: z.string(),
        /** Names as the agent announced them (see agentCapabilitySchema); unknown ones dropped. */
        capabilities: z.array(z.string()),
        connected: z.boolean(),
        last_connected_at: z.string().nullable(),
        /** Its last connection came over plain ws:// (http://); null before the first one. */
        insecure: z.boolean().nullable(),
      })
      .nullable(),
  }),
);
export type HostConnection = z.infer<typeof hostConnectionSchema>;

/** A registered engine as GET /api/hosts returns it; TLS material is never included. */
export const hostSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    status: hostStatusSchema,
    /** Why the host is offline or degraded, in words; null while all is well. */
    error: z.string().nullable(),
    security_status: z.enum(['secure', 'insecure', 'unknown']),
    tags: z.array(z.string()),
    description: z.string().nullable(),
    os_version: z.string().nullable(),
    docker_version: z.string().nullable(),
    num_cpus: z.number().nullable(),
    total_memory: z.number().nullable(),
    last_checked: z.string().nullable(),
    /** When the engine started, as well as Berth can tell (see uptime_source); null: unknown. */
    daemon_started_at: z.string().nullable(),
    uptime_source: hostUptimeSourceSchema.nullable(),
    /** What the uptime means, or why there is none; shown with it. */
    uptime_note: z.string().nullable(),
    container_count: z.number(),
    updates_available: z.number(),
    alerts: z.object({ open: z.number(), snoozed: z.number() }),
    stats: hostStatsSchema.nullable(),
    sparklines: sparklinesSchema.nullable(),
    containers: z.object({ total: z.number(), running: z.number(), stopped: z.number() }),
    /** Added by Berth (decision 015: a client of the spec ignores a field it does not know). */
    connection: hostConnectionSchema,
  }),
);
export type Host = z.infer<typeof hostSchema>;

export const MAX_HOST_TAGS = 20;
export const HOST_URL_SCHEMES = ['unix://', 'tcp://', 'http://', 'https://'] as const;

/** A host tag: trimmed and lowercased. */
export const hostTagSchema = lazySchema(() =>
  z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'Tags must not be empty')
    .max(50, 'Tags must be at most 50 characters'),
);

const hostTagsSchema = lazySchema(() =>
  z
    .array(hostTagSchema)
    .transform((tags) => [...new Set(tags)])
    .refine(
      (tags) => tags.length <= MAX_HOST_TAGS,
      `A host can have at most ${MAX_HOST_TAGS} tags`,
    ),
);

const pemSchema = lazySchema(() => z.string().max(20_000, 'Certificate is too long').nullable());

/** Host payload for create, update and test-connection, with a message naming each bad field. */
export const hostPayloadSchema = lazySchema(() =>
  z.strictObject({
    name: z
      .string({ message: 'Host name is required' })
      .trim()
      .min(1, 'Host name is required')
      .max(100, 'Host name must be less than 100 characters')
      .regex(/^[a-zA-Z0-9][a-zA-Z0-9 ._-]*$/, 'Host name contains invalid characters'),
    url: z
      .string({ message: 'Address/Endpoint is required' })
      .trim()
      .min(1, 'Address/Endpoint is required')
      .max(500, 'Address/Endpoint must be less than 500 characters')
      .refine(
        // An agent host's own URL comes back unchanged from its edit form and Test Connection.
        (url) => isAgentHostUrl(url) || HOST_URL_SCHEMES.some((scheme) => url.startsWith(scheme)),
        { message: 'URL must start with unix://, tcp://, http:// or https://', abort: true },
      )
      .superRefine((url, ctx) => {
        if (isAgentHostUrl(url)) {
          if (!AGENT_HOST_URL.test(url))
            ctx.addIssue({ code: 'custom', message: 'URL must be agent://<agent id>' });
          return;
        }
        const address = parseEngineUrl(url);
        if ('error' in address) ctx.addIssue({ code: 'custom', message: address.error });
      }),
    tags: hostTagsSchema.default([]),
    description: z
      .string()
      .max(1000, 'Description must be less than 1000 characters')
      .nullable()
      .default(null),
    /** PEM text; on update, null keeps the stored certificate. */
    tls_ca: pemSchema.default(null),
    tls_cert: pemSchema.default(null),
    tls_key: pemSchema.default(null),
  }),
);
export type HostPayload = z.infer<typeof hostPayloadSchema>;
export type HostPayloadInput = z.input<typeof hostPayloadSchema>;

export const testConnectionResponseSchema = lazySchema(() =>
  z.object({
    success: z.literal(true),
    message: z.string(),
    docker_version: z.string(),
    api_version: z.string(),
  }),
);
export type TestConnectionResponse = z.infer<typeof testConnectionResponseSchema>;

export const hostTagsPatchSchema = lazySchema(() =>
  z.strictObject({
    tags_to_add: z.array(hostTagSchema).max(MAX_HOST_TAGS).default([]),
    tags_to_remove: z.array(hostTagSchema).max(100).default([]),
  }),
);
export type HostTagsPatch = z.infer<typeof hostTagsPatchSchema>;

export const tagsResponseSchema = lazySchema(() => z.object({ tags: z.array(z.string()) }));
export type TagsResponse = z.infer<typeof tagsResponseSchema>;

export const tagSuggestQuerySchema = lazySchema(() =>
  z.strictObject({
    q: z.string().max(100).default(''),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  }),
);

export const deleteHostResponseSchema = lazySchema(() =>
  z.object({
    ok: z.literal(true),
    resolved_alerts: z.number(),
  }),
);
