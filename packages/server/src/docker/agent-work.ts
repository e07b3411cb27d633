import {
  AGENT_API_PATHS,
  AGENT_URL_SCHEME,
  agentComposeFileAnswerSchema,
  agentContainerStatsAnswerSchema,
  agentHostMetricsSchema,
  agentHttpProbeResultSchema,
  type AgentCapability,
  type AgentComposeFileRequest,
  type AgentContainerStatsAnswer,
  type AgentContainerStatsRequest,
  type AgentHostMetrics,
  type AgentHttpProbeRequest,
  type AgentHttpProbeResult,
} from '@berth/contracts';
import type { AgentTunnels } from './agent-tunnels.js';

/** How much longer than the check's own timeout Berth waits for the agent's answer. */
export const PROBE_ANSWER_MARGIN_MS = 5000;
/** A host-metrics read: /proc, statfs and, once, the engine's Info. */
const HOST_METRICS_TIMEOUT_MS = 10_000;
/** A compose file of at most 256 KB, after the agent lists the project's containers. */
const COMPOSE_FILE_TIMEOUT_MS = 10_000;
/** A stats read of a whole host's containers from files (a few ms per hundred). */
const CONTAINER_STATS_TIMEOUT_MS = 5000;

/**
 * Work that runs next to an agent host's engine (decision 023), for the modules that would
 * otherwise do it in Berth's process: which agent can do it, and the calls, their answers
 * checked against the contracts' shapes (an agent is another program, maybe another version).
 */
export class AgentWork {
  constructor(private readonly tunnels: AgentTunnels) {}

  /**
   * The agent carrying a host (url `agent://<id>`) when it is connected and announced
   * `capability`; null for every other host, and for an older agent: Berth does the work.
   */
  agentFor(hostUrl: string | undefined, capability: AgentCapability): string | null {
    if (hostUrl === undefined || !hostUrl.startsWith(AGENT_URL_SCHEME)) return null;
    const agentId = hostUrl.slice(AGENT_URL_SCHEME.length);
    return this.tunnels.capabilitiesOf(agentId).includes(capability) ? agentId : null;
  }

  /** One health-check probe on the agent's host; a failed call is a failed check, in words. */
  async httpProbe(agentId: string, req: AgentHttpProbeRequest): Promise<AgentHttpProbeResult> {
    try {
      const answer = await this.tunnels.request(agentId, {
        method: 'POST',
        path: AGENT_API_PATHS.httpProbe,
        body: req,
        timeoutMs: req.timeoutMs + PROBE_ANSWER_MARGIN_MS,
      });
      return checked(agentHttpProbeResultSchema, answer);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return {
        healthy: false,
        message: `The agent could not run the check: ${why}`,
        statusCode: null,
        responseTimeMs: null,
      };
    }
  }

  /** The agent host's CPU, memory and engine data filesystem; rejects with the reason. */
  async hostMetrics(agentId: string): Promise<AgentHostMetrics> {
    const answer = await this.tunnels.request(agentId, {
      method: 'GET',
      path: AGENT_API_PATHS.hostMetrics,
      timeoutMs: HOST_METRICS_TIMEOUT_MS,
    });
    return checked(agentHostMetricsSchema, answer);
  }

  /** Raw counters of the containers whose cgroup files the agent could read. */
  async containerStats(
    agentId: string,
    containers: AgentContainerStatsRequest['containers'],
  ): Promise<AgentContainerStatsAnswer> {
    const answer = await this.tunnels.request(agentId, {
      method: 'POST',
      path: AGENT_API_PATHS.containerStats,
      body: { containers },
      timeoutMs: CONTAINER_STATS_TIMEOUT_MS,
    });
    return checked(agentContainerStatsAnswerSchema, answer);
  }

  /** A compose file a label of the project's containers names; rejects with the agent's reason. */
  async composeFile(
    agentId: string,
    req: AgentComposeFileRequest,
  ): Promise<{ content: string; size: number }> {
    const answer = await this.tunnels.request(agentId, {
      method: 'POST',
      path: AGENT_API_PATHS.composeFile,
      body: req,
      timeoutMs: COMPOSE_FILE_TIMEOUT_MS,
    });
    return checked(agentComposeFileAnswerSchema, answer);
  }
}

function checked<T>(schema: { safeParse(v: unknown): { success: boolean; data?: T } }, v: unknown) {
  const parsed = schema.safeParse(v);
  if (!parsed.success || parsed.data === undefined)
    throw new Error('The agent answered in an unexpected shape');
  return parsed.data;
}
