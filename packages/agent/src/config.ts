export interface AgentConfig {
  /** Berth's connect endpoint, derived from BERTH_URL (Berth's own address). */
  connectUrl: string;
  /** The local engine socket the agent forwards to. */
  socketPath: string;
}

const DEFAULT_SOCKET = '/var/run/docker.sock';
const CONNECT_PATH = '/api/agents/connect';

/** The agent's settings from its environment; a missing or bad one stops it with the reason. */
export function readAgentConfig(env: NodeJS.ProcessEnv): AgentConfig {
  const base = env.BERTH_URL;
  if (base === undefined || base === '') throw new Error('BERTH_URL is required');
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`BERTH_URL is not a URL: ${base}`);
  }
  const scheme = { 'https:': 'wss:', 'http:': 'ws:', 'wss:': 'wss:', 'ws:': 'ws:' }[url.protocol];
  if (scheme === undefined) throw new Error(`BERTH_URL must be an https:// address: ${base}`);
  url.protocol = scheme;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${CONNECT_PATH}`;
  return {
    connectUrl: url.toString(),
    socketPath: env.BERTH_AGENT_DOCKER_SOCKET ?? DEFAULT_SOCKET,
  };
}
