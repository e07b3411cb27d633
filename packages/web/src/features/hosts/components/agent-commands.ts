/** What the agent's container needs to know: where Berth is, its token, and its host's name. */
export interface AgentEnvironment {
  /** Berth's address as the browser sees it (window.location.origin). */
  berthUrl: string;
  token: string;
  /** Empty: the agent names its host after the machine. */
  name: string;
}

/** The image the repository's Dockerfile builds with `--target agent`. */
export const AGENT_IMAGE = 'berth-agent';
export const AGENT_BUILD_COMMAND = `docker build --target agent -t ${AGENT_IMAGE} .`;

/**
 * The agent's image runs as uid 1000, not root: the group that owns the engine's socket lets it
 * in (as for Berth's own container). The host's shell reads that group where the command runs.
 */
const SOCKET_GROUP = '"$(stat -c %g /var/run/docker.sock)"';

/**
 * Container stats come from the host's cgroup files (Engine API calls otherwise): the host's
 * /proc gives each container's cgroup path, the host's /sys/fs/cgroup its files. A container
 * sees only its own cgroup there unless the host's is mounted, and on cgroup v2 the paths in
 * /proc are relative to the agent's own cgroup namespace unless it shares the host's.
 */
const CGROUP_NAMESPACE = 'host';

const MOUNTS = [
  '/var/run/docker.sock:/var/run/docker.sock',
  '/proc:/host/proc:ro',
  '/sys/fs/cgroup:/sys/fs/cgroup:ro',
  'berth-agent:/var/lib/berth-agent',
];

/** Berth is reached over plain http://: the agent's secret and traffic would be unencrypted. */
export const isPlainHttp = (berthUrl: string) => berthUrl.startsWith('http://');

/** A value as a shell word: bare when it is plain, else in single quotes. */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_./:@=,+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function envOf(env: AgentEnvironment): [string, string][] {
  const vars: [string, string][] = [
    ['BERTH_URL', env.berthUrl],
    ['BERTH_AGENT_TOKEN', env.token],
  ];
  const name = env.name.trim();
  if (name !== '') vars.push(['BERTH_AGENT_NAME', name]);
  // The agent dials plain http:// only when told so, on purpose (the host list then warns).
  if (isPlainHttp(env.berthUrl)) vars.push(['BERTH_AGENT_INSECURE', '1']);
  return vars;
}

/** The `docker run` line, one option a line so it reads and copies whole. */
export function agentRunCommand(env: AgentEnvironment): string {
  return [
    'docker run -d --name berth-agent --restart unless-stopped',
    `--group-add ${SOCKET_GROUP}`,
    `--cgroupns=${CGROUP_NAMESPACE}`,
    ...MOUNTS.map((m) => `-v ${m}`),
    ...envOf(env).map(([key, value]) => `-e ${shellWord(`${key}=${value}`)}`),
    AGENT_IMAGE,
  ].join(' \\\n  ');
}

/** The same container as a compose file. */
export function agentComposeSnippet(env: AgentEnvironment): string {
  const yaml = (value: string) => JSON.stringify(value);
  return [
    'services:',
    '  berth-agent:',
    `    image: ${AGENT_IMAGE}`,
    '    container_name: berth-agent',
    '    restart: unless-stopped',
    `    cgroup: ${CGROUP_NAMESPACE}`,
    '    volumes:',
    ...MOUNTS.map((m) => `      - ${m}`),
    "    # The socket's group, for the agent's uid 1000: DOCKER_GID=$(stat -c %g /var/run/docker.sock)",
    '    group_add:',
    '      - "${DOCKER_GID:?set DOCKER_GID to what stat -c %g /var/run/docker.sock prints}"',
    '    environment:',
    ...envOf(env).map(([key, value]) => `      ${key}: ${yaml(value)}`),
    'volumes:',
    '  berth-agent:',
    '',
  ].join('\n');
}
