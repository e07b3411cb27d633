import { hostname } from 'node:os';
import { AGENT_CONNECT_PATH, AGENT_ENROLL_PATH } from '@berth/contracts/agents';

export interface AgentConfig {
  /** Berth's connect endpoint, derived from BERTH_URL (Berth's own address). */
  connectUrl: string;
  /** Where a new agent trades its enrollment token for its secret. */
  enrollUrl: string;
  /** The local engine socket the agent forwards to. */
  socketPath: string;
  /** Keeps the agent's secret across restarts (a volume in a container). */
  dataDir: string;
  /** The one-time token from Berth's Add Host dialog; only needed until the secret exists. */
  token: string | null;
  /** The name of the host in Berth, chosen at enrollment. */
  name: string;
  /** The host's /proc, for host metrics (mounted read-only at /host/proc in the image). */
  hostProc: string;
  /** The filesystem measured for disk figures instead of the engine's data root, when set. */
  diskPath: string | null;
}

const DEFAULT_SOCKET = '/var/run/docker.sock';
const DEFAULT_DATA_DIR = '/var/lib/berth-agent';

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
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`BERTH_URL must be an https:// address: ${base}`);
  const at = (path: string, scheme: string) => {
    const target = new URL(url);
    target.protocol = scheme;
    target.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
    return target.toString();
  };
  return {
    connectUrl: at(AGENT_CONNECT_PATH, url.protocol === 'https:' ? 'wss:' : 'ws:'),
    enrollUrl: at(AGENT_ENROLL_PATH, url.protocol),
    socketPath: env.BERTH_AGENT_DOCKER_SOCKET ?? DEFAULT_SOCKET,
    dataDir: env.BERTH_AGENT_DATA_DIR ?? DEFAULT_DATA_DIR,
    token:
      env.BERTH_AGENT_TOKEN === undefined || env.BERTH_AGENT_TOKEN === ''
        ? null
        : env.BERTH_AGENT_TOKEN,
    name: env.BERTH_AGENT_NAME ?? hostname(),
    hostProc: env.BERTH_AGENT_HOST_PROC || '/proc',
    diskPath: env.BERTH_AGENT_DISK_PATH || null,
  };
}
