export {
  createEngineClient,
  engineLimits,
  limitsOf,
  MAX_ANSWER_BYTES,
  type EngineClientOptions,
  type EngineEndpoint,
} from './engine-client.js';
export { ANSWER_TOO_LARGE, silentEngineMessage, type EngineLimits } from './engine-agent.js';
export { describeEngineError, EngineError, NOT_DOCKER } from './engine-errors.js';
export { probeEngine, type EngineProbe } from './engine-probe.js';
export {
  EventLineParser,
  MAX_EVENT_LINE_BYTES,
  openEngineEvents,
  type EngineEvent,
  type EngineEventHandlers,
  type EngineEventLimits,
  type EngineEventQuery,
  type EngineEventStream,
} from './event-stream.js';
export type { Engine } from './engine.js';
export {
  AGENT_NOT_CONNECTED,
  AgentCallError,
  openAgentTunnel,
  type AgentCall,
  type AgentTunnel,
  type EngineDialer,
} from './agent-tunnel.js';
export { AgentTunnels } from './agent-tunnels.js';
export { AgentWork, PROBE_ANSWER_MARGIN_MS } from './agent-work.js';
export { openEngine } from './dockerode-engine.js';
export type * from './engine-types.js';
