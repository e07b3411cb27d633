import type { AgentCapability, Host } from '@berth/contracts';
import { ShieldAlert } from 'lucide-react';
import { InfoRow } from '@/components/detail-section';
import { formatAgo } from '@/lib/format';

/** How Berth reaches the host, in a word: Socket, TCP, TLS, or Agent with its version. */
export function connectionLabel(host: Pick<Host, 'connection'>): string {
  const { type, agent } = host.connection;
  switch (type) {
    case 'socket':
      return 'Socket';
    case 'tcp':
      return 'TCP';
    case 'tls':
      return 'TLS';
    case 'agent':
      return agent === null || agent.version === 'unknown' ? 'Agent' : `Agent ${agent.version}`;
  }
}

export const isAgentHost = (host: Pick<Host, 'connection'>) => host.connection.type === 'agent';

/** The connection type as a small chip beside the host's name. */
export function ConnectionBadge({ host }: { host: Host }) {
  return (
    <span
      data-testid="connection-type"
      className="rounded border border-slate-700 px-1.5 py-px text-[11px] font-normal whitespace-nowrap text-slate-400"
    >
      {connectionLabel(host)}
    </span>
  );
}

/** Why an agent's plain connection is a risk, like the plain-TCP warning. */
export const INSECURE_AGENT_TEXT =
  "The agent connects over plain ws:// (Berth's address is http://): its secret and engine traffic are not encrypted. Use https:// for production use.";

export function InsecureAgentWarning() {
  return (
    <span className="inline-flex items-start gap-1 text-amber-300">
      <ShieldAlert className="mt-0.5 h-4 w-4 shrink-0" /> {INSECURE_AGENT_TEXT}
    </span>
  );
}

/**
 * What each capability an agent announces lets it do, in words, in the order they are shown;
 * a capability added to the contract does not compile until it has its words here.
 */
const CAPABILITY_TEXT: Record<AgentCapability, string> = {
  'http-probe': 'HTTP probes',
  'container-stats': 'container stats',
  'host-metrics': 'host metrics',
  'compose-file': 'compose files',
  'read-only': 'read-only',
};

/**
 * What an agent runs next to its engine, as it said when it last connected, e.g. "HTTP probes,
 * container stats, host metrics, read-only"; an agent that announced none only carries the
 * Engine API.
 */
export function capabilitiesText(agent: { capabilities: string[] }): string {
  if (agent.capabilities.length === 0) return 'None (Engine API only)';
  // Known ones in one order whatever the agent's; a newer agent's unknown ones after them.
  const order = Object.keys(CAPABILITY_TEXT);
  const rank = (c: string) => (order.includes(c) ? order.indexOf(c) : order.length);
  const text = [...agent.capabilities]
    .sort((a, b) => rank(a) - rank(b))
    .map((c) => (CAPABILITY_TEXT as Record<string, string | undefined>)[c] ?? c)
    .join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An agent host's capabilities and when its agent last connected; nothing for other hosts. */
export function AgentInfoRows({ host, testIdPrefix }: { host: Host; testIdPrefix: string }) {
  const agent = host.connection.agent;
  if (host.connection.type !== 'agent' || agent === null) return null;
  const at = agent.last_connected_at;
  return (
    <>
      <InfoRow label="Capabilities">
        <span data-testid={`${testIdPrefix}-agent-capabilities`}>{capabilitiesText(agent)}</span>
      </InfoRow>
      <InfoRow label="Last connected">
        <span
          data-testid={`${testIdPrefix}-agent-last-connected`}
          title={at === null ? undefined : new Date(at).toLocaleString()}
        >
          {formatAgo(at)}
          {agent.connected && at !== null ? ' (still connected)' : ''}
        </span>
      </InfoRow>
    </>
  );
}
