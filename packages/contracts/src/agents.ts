import { z } from 'zod';
import { hostPayloadSchema } from './hosts.js';
import { AGENT_CAPABILITIES, type AgentCapability } from './agent-wire.js';
import { lazySchema } from './lazy-schema.js';

// The agent's own wire (zod-free, what the agent loads) is part of this module's API.
export * from './agent-wire.js';

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

export const agentCapabilitySchema = lazySchema(() => z.enum(AGENT_CAPABILITIES));

/** The capabilities header: comma-separated names; unknown ones (a newer agent's) are ignored. */
export const parseAgentCapabilities = (header: string | undefined): AgentCapability[] =>
  (header ?? '')
    .split(',')
    .map((name) => name.trim())
    .flatMap((name) => {
      const parsed = agentCapabilitySchema.safeParse(name);
      return parsed.success ? [parsed.data] : [];
    });

export const agentNewSecretAnswerSchema = lazySchema(() => z.object({ ok: z.literal(true) }));

/** POST /api/hosts/{id}/agent/rotate-secret: the agent holds a new secret, the old one is dead. */
export const rotateAgentSecretResponseSchema = lazySchema(() =>
  z.object({ ok: z.literal(true), rotated_at: z.string() }),
);
export type RotateAgentSecretResponse = z.infer<typeof rotateAgentSecretResponseSchema>;

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
        /** Block I/O counters, when the agent could read them (agents before them send none). */
        block_read_bytes: z.number().optional(),
        block_write_bytes: z.number().optional(),
      }),
    ),
  }),
);
export type AgentContainerStatsAnswer = z.infer<typeof agentContainerStatsAnswerSchema>;
