export {
  connectToBerth,
  ConnectError,
  type AgentConnection,
  type ConnectOptions,
} from './connect.js';
export { serveEngine, type EngineTunnelOptions } from './engine-tunnel.js';
