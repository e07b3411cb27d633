import type { Host } from '@berth/contracts';
import { ShieldAlert } from 'lucide-react';

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
