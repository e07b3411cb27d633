import { hostname } from 'node:os';
import { AGENT_CONNECT_PATH, AGENT_ENROLL_PATH } from '@berth/contracts/agent-wire';

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
  /** A CA (PEM) trusted for Berth's certificate besides the system's: a self-made certificate. */
  caFile?: string | null;
  /** BERTH_URL is http://, allowed only by BERTH_AGENT_INSECURE=1. */
  insecure?: boolean;
  /** Only reads reach the engine; every action answers 403 (BERTH_AGENT_READ_ONLY=1). */
  readOnly?: boolean;
}

const DEFAULT_SOCKET = '/var/run/docker.sock';
const DEFAULT_DATA_DIR = '/var/lib/berth-agent';

/** The agent's settings from its environment; a missing or bad one stops it with the reason. */
export function readAgentConfig(env: NodeJS.ProcessEnv): AgentConfig {
  const base = env.BERTH_URL;
  if (base === undefined || base === '') throw new Error('BERTH_URL is required');
  // No message here repeats BERTH_URL whole: it might carry credentials someone put there.
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error('BERTH_URL is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error('BERTH_URL must be an https:// address');
  if (url.username !== '' || url.password !== '' || url.search !== '')
    throw new Error(
      'BERTH_URL must not carry credentials or a query: the token goes in BERTH_AGENT_TOKEN',
    );
  const insecure = flag(env.BERTH_AGENT_INSECURE);
  if (url.protocol === 'http:' && !insecure)
    throw new Error(
      `BERTH_URL is http://${url.host}: the secret and the engine's traffic would cross the network unencrypted; use https://, or set BERTH_AGENT_INSECURE=1 to allow it`,
    );
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
    // Empty counts as unset: a compose file passes `${BERTH_AGENT_NAME:-}` through.
    name: env.BERTH_AGENT_NAME || hostname(),
    hostProc: env.BERTH_AGENT_HOST_PROC || '/proc',
    diskPath: env.BERTH_AGENT_DISK_PATH || null,
    caFile: env.BERTH_AGENT_CA_FILE || null,
    insecure: url.protocol === 'http:',
    readOnly: flag(env.BERTH_AGENT_READ_ONLY),
  };
}

/** `1`, `true` or `yes` (any case) turn a flag on; anything else, or nothing, leaves it off. */
const flag = (value: string | undefined) => /^(1|true|yes)$/i.test(value ?? '');
