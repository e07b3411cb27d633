export {
  connectToBerth,
  ConnectError,
  type AgentConnection,
  type ConnectOptions,
} from './connect.js';
export { serveEngine, type EngineTunnelOptions } from './engine-tunnel.js';
export {
  AgentRequestError,
  serveAgentRequest,
  type AgentHandler,
  type AgentHandlers,
} from './agent-api.js';
