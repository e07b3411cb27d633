import type { AgentCapability } from '@berth/contracts/agents';
import type { AgentHandlers } from '../agent-api.js';
import type { AgentConfig } from '../config.js';

/**
 * The work this agent does next to its engine, as requests Berth may send it (see
 * agent-api.ts), by `METHOD path`. Each kind of work adds its handlers here.
 */
export function agentHandlers(_config: AgentConfig): AgentHandlers {
  return new Map();
}

/** What this agent announces it can do, beyond carrying the Engine API (every agent does). */
export function agentCapabilities(_config: AgentConfig): AgentCapability[] {
  return [];
}
