import { z } from 'zod';
import { hostPayloadSchema } from './hosts.js';
import { lazySchema } from './lazy-schema.js';

/** The URL of a host whose engine an agent carries: no address, the agent's id. */
export const AGENT_URL_SCHEME = 'agent://';
export const agentHostUrl = (agentId: string) => `${AGENT_URL_SCHEME}${agentId}`;

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
