import { z } from 'zod';
import { healthCheckMethodSchema, statusCodesSchema } from './health-checks.js';
import { hostPayloadSchema } from './hosts.js';
import { lazySchema } from './lazy-schema.js';

/** Headers an agent authenticates with: never a URL, which proxies and logs keep. */
export const AGENT_TOKEN_HEADER = 'x-berth-enrollment-token';
export const AGENT_SECRET_HEADER = 'authorization';
export const agentSecretHeaderValue = (secret: string) => `Bearer ${secret}`;

/** Where an agent enrolls and where it connects, under Berth's own address. */
export const AGENT_ENROLL_PATH = '/api/agents/enroll';
export const AGENT_CONNECT_PATH = '/api/agents/connect';

/** How long an enrollment token may wait for its agent. */
export const ENROLLMENT_TOKEN_TTL_MS = 60 * 60 * 1000;

export const enrollmentTokenResponseSchema = lazySchema(() =>
  z.object({ token: z.string(), expires_at: z.string() }),
);
export type EnrollmentTokenResponse = z.infer<typeof enrollmentTokenResponseSchema>;

/** What an agent says about itself when it enrolls; the name becomes its host's. */
export const agentEnrollPayloadSchema = lazySchema(() =>
  hostPayloadSchema.pick({ name: true }).extend({
    version: z.string().trim().min(1, 'Agent version is required').max(50),
  }),
);
export type AgentEnrollPayload = z.infer<typeof agentEnrollPayloadSchema>;

/** The agent's long-lived secret: shown this once, Berth keeps only its hash. */
export const agentEnrollResponseSchema = lazySchema(() =>
  z.object({ agent_id: z.string(), host_id: z.string(), secret: z.string() }),
);
export type AgentEnrollResponse = z.infer<typeof agentEnrollResponseSchema>;

/**
 * What an agent says of itself on every connect, in headers of its WebSocket handshake.
 * The protocol is the agent transport's version: Berth refuses an agent announcing another
 * one (426) with a message its host shows; its capabilities say what it runs next to the
 * engine beyond the Engine API tunnel, which every agent carries.
 */
export const AGENT_VERSION_HEADER = 'x-berth-agent-version';
export const AGENT_PROTOCOL_HEADER = 'x-berth-agent-protocol';
export const AGENT_CAPABILITIES_HEADER = 'x-berth-agent-capabilities';
export const AGENT_PROTOCOL = 1;

export const agentCapabilitySchema = lazySchema(() =>
  z.enum([
    /** Runs HTTP health checks from the host's network (container IPs are reachable there). */
    'http-probe',
    /** Reads container stats from the host's cgroup files. */
    'container-stats',
    /** Reads host CPU, memory and disk from the host's /proc and data filesystem. */
    'host-metrics',
    /** Forwards only reads to its engine; every action answers 403. */
    'read-only',
  ]),
);
export type AgentCapability = z.infer<typeof agentCapabilitySchema>;

/** The capabilities header: comma-separated names; unknown ones (a newer agent's) are ignored. */
export const parseAgentCapabilities = (header: string | undefined): AgentCapability[] =>
  (header ?? '')
    .split(',')
    .map((name) => name.trim())
    .flatMap((name) => {
      const parsed = agentCapabilitySchema.safeParse(name);
      return parsed.success ? [parsed.data] : [];
    });

/**
 * Requests Berth sends to the agent itself (not its engine) on the same HTTP/2 session:
 * JSON in, JSON out, `{"detail": …}` on failure. Each call's schemas sit beside its path.
 */
export const AGENT_API_PATHS = {
  /** POST: the agent stores a new secret; Berth swaps the hash once it answered. */
  secret: '/v1/secret',
  /** POST: one HTTP health check, run from the host's network. */
  httpProbe: '/v1/http-probe',
  /** GET: host CPU, memory and disk from the host's /proc and data filesystem. */
  hostMetrics: '/v1/host-metrics',
  /** POST: stats of the given containers from the host's cgroup files. */
  containerStats: '/v1/container-stats',
} as const;

/** POST /v1/secret: the agent's new secret, which it stores before it answers. */
export const agentNewSecretSchema = lazySchema(() =>
  z.strictObject({ secret: z.string().min(32).max(200) }),
);
export type AgentNewSecret = z.infer<typeof agentNewSecretSchema>;
export const agentNewSecretAnswerSchema = lazySchema(() => z.object({ ok: z.literal(true) }));

/** POST /api/hosts/{id}/agent/rotate-secret: the agent holds a new secret, the old one is dead. */
export const rotateAgentSecretResponseSchema = lazySchema(() =>
  z.object({ ok: z.literal(true), rotated_at: z.string() }),
);
export type RotateAgentSecretResponse = z.infer<typeof rotateAgentSecretResponseSchema>;

/** Largest JSON body either side of an agent request accepts. */
export const AGENT_API_MAX_BODY_BYTES = 1024 * 1024;

const PROBE_HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** A check's own headers (at most 20) plus its authorization, with room to spare. */
export const AGENT_PROBE_MAX_HEADERS = 32;

/**
 * One HTTP health check the agent runs from its host's network (`POST /v1/http-probe`): the
 * request Berth's own probe takes, `{container_ip}` already resolved. The agent's timeout is
 * the check's; Berth waits a little longer for the answer.
 */
export const agentHttpProbeRequestSchema = lazySchema(() =>
  z.strictObject({
    url: z
      .url({ protocol: /^https?$/, error: 'Must be an http:// or https:// address' })
      .max(2048, 'At most 2048 characters'),
    method: healthCheckMethodSchema,
    expectedStatusCodes: statusCodesSchema,
    timeoutMs: z.number().int().min(100).max(120_000),
    followRedirects: z.boolean(),
    verifySsl: z.boolean(),
    headers: z
      .record(
        z.string().regex(PROBE_HEADER_NAME, 'Invalid header name'),
        z
          .string()
          .max(4000, 'A header value is at most 4000 characters')
          .refine((v) => !/[\r\n\0]/.test(v), 'A header value has no line breaks'),
      )
      .refine(
        (h) => Object.keys(h).length <= AGENT_PROBE_MAX_HEADERS,
        `At most ${AGENT_PROBE_MAX_HEADERS} headers`,
      ),
  }),
);
export type AgentHttpProbeRequest = z.infer<typeof agentHttpProbeRequestSchema>;

/** One check's outcome, as Berth's own probe reports it. */
export const agentHttpProbeResultSchema = lazySchema(() =>
  z.object({
    healthy: z.boolean(),
    message: z.string().max(2000),
    statusCode: z.number().int().nullable(),
    responseTimeMs: z.number().nullable(),
  }),
);
export type AgentHttpProbeResult = z.infer<typeof agentHttpProbeResultSchema>;

/**
 * The agent's host (`GET /v1/host-metrics`): CPU busy over the time since its previous read
 * (null on the first), memory as `free` counts it (total − available), and the filesystem
 * holding the engine's data root as `df` counts it (null with the reason when unreadable).
 */
export const agentHostMetricsSchema = lazySchema(() =>
  z.object({
    cpu_percent: z.number().nullable(),
    cpus: z.number().int(),
    mem_total_bytes: z.number(),
    mem_used_bytes: z.number(),
    disk: z.union([
      z.object({ path: z.string(), used_bytes: z.number(), total_bytes: z.number() }),
      z.object({ unavailable: z.string() }),
    ]),
  }),
);
export type AgentHostMetrics = z.infer<typeof agentHostMetricsSchema>;

/** Containers one container-stats request may name: a full host at the 2 s cadence. */
export const AGENT_STATS_MAX_CONTAINERS = 2000;

/**
 * `POST /v1/container-stats`: the running containers whose cgroup files the agent reads,
 * by short id, full id and init PID (from the engine's inspect, which Berth already holds).
 */
export const agentContainerStatsRequestSchema = lazySchema(() =>
  z.strictObject({
    containers: z
      .array(
        z.strictObject({
          id: z.string().regex(/^[0-9a-f]{12}$/, 'Must be a 12-character container id'),
          fullId: z.string().regex(/^[0-9a-f]{64}$/, 'Must be a 64-character container id'),
          pid: z.number().int().min(0),
        }),
      )
      .max(AGENT_STATS_MAX_CONTAINERS, `At most ${AGENT_STATS_MAX_CONTAINERS} containers`),
  }),
);
export type AgentContainerStatsRequest = z.infer<typeof agentContainerStatsRequestSchema>;

/**
 * One raw reading per container whose files the agent could read (others are left out and
 * Berth asks the Engine API). Nanosecond counters travel as decimal strings: they pass 2^53.
 * `at_ns` is the agent's monotonic clock, so rates come from two readings of the same agent.
 */
export const agentContainerStatsAnswerSchema = lazySchema(() =>
  z.object({
    samples: z.array(
      z.object({
        id: z.string(),
        at_ns: z.string().regex(/^\d+$/),
        cpu_ns: z.string().regex(/^\d+$/),
        memory_bytes: z.number(),
        memory_limit: z.number(),
        rx_bytes: z.number(),
        tx_bytes: z.number(),
      }),
    ),
  }),
);
export type AgentContainerStatsAnswer = z.infer<typeof agentContainerStatsAnswerSchema>;
