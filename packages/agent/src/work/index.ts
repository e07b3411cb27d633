import {
  AGENT_API_PATHS,
  readAgentComposeFileRequest,
  readAgentContainerStatsRequest,
  readAgentHttpProbeRequest,
  type AgentCapability,
} from '@berth/contracts/agent-wire';
import type { AgentHandler, AgentHandlers } from '../agent-api.js';
import type { AgentConfig } from '../config.js';
import { composeFileHandler } from './compose-file.js';
import { containerStatsReader } from './container-stats.js';
import { hostMetricsReader } from './host-metrics.js';
import { probe } from './http-probe.js';
import { parseBody } from './parse-body.js';
import { rotateSecretHandler } from './rotate-secret.js';

/**
 * The work this agent does next to its engine, as requests Berth may send it (see
 * agent-api.ts), by `METHOD path`. Each kind of work adds its handlers here.
 */
export function agentHandlers(config: AgentConfig): AgentHandlers {
  const hostMetrics = hostMetricsReader({
    procDir: config.hostProc,
    socketPath: config.socketPath,
    diskPath: config.diskPath,
  });
  const containerStats = containerStatsReader(config.hostProc);
  const composeFile = composeFileHandler(config.socketPath);
  return new Map<string, AgentHandler>([
    // The same probe Berth runs for its direct hosts, from this host's network.
    [
      `POST ${AGENT_API_PATHS.httpProbe}`,
      (body) => probe(parseBody(readAgentHttpProbeRequest, body)),
    ],
    [`GET ${AGENT_API_PATHS.hostMetrics}`, () => hostMetrics()],
    [
      `POST ${AGENT_API_PATHS.containerStats}`,
      (body) => containerStats(parseBody(readAgentContainerStatsRequest, body)),
    ],
    [
      `POST ${AGENT_API_PATHS.composeFile}`,
      (body) => composeFile(parseBody(readAgentComposeFileRequest, body)),
    ],
    [`POST ${AGENT_API_PATHS.secret}`, rotateSecretHandler(config)],
  ]);
}

/** What this agent announces it can do, beyond carrying the Engine API (every agent does). */
export function agentCapabilities(config: AgentConfig): AgentCapability[] {
  const capabilities: AgentCapability[] = [
    'http-probe',
    'host-metrics',
    'container-stats',
    'compose-file',
  ];
  if (config.readOnly) capabilities.push('read-only');
  return capabilities;
}
