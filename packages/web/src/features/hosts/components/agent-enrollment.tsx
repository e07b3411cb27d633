import {
  agentEnrollPayloadSchema,
  type EnrollmentTokenResponse,
  type Host,
} from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Copy, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorText } from '@/lib/api-client';
import { formatTime } from '@/lib/format';
import { hostsQueryOptions } from '@/lib/queries';
import { useCreateEnrollmentToken } from '../api/hosts-api';
import {
  AGENT_BUILD_COMMAND,
  agentComposeSnippet,
  isPlainHttp,
  agentRunCommand,
  type AgentEnvironment,
} from './agent-commands';
import { isAgentHost } from './connection';

/** How often the dialog looks for the agent's host while it waits. */
const WAIT_POLL_MS = 2000;

interface Issued extends EnrollmentTokenResponse {
  /** The agent hosts there were when the token was made: the new one is the one not here. */
  before: ReadonlySet<string>;
}

/** The host name's own check ("Host name contains invalid characters"), when one is typed. */
function nameError(name: string): string | undefined {
  if (name.trim() === '') return undefined;
  const parsed = agentEnrollPayloadSchema.safeParse({ name, version: 'x' });
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/** The agent host that appeared since the token was made (the one named so, if named). */
function arrived(hosts: Host[] | undefined, issued: Issued, name: string): Host | undefined {
  const fresh = (hosts ?? []).filter((h) => isAgentHost(h) && !issued.before.has(h.id));
  return fresh.find((h) => h.name === name.trim()) ?? fresh[0];
}

/**
 * Add Host → Agent: makes a one-time enrollment token, shows it inside a ready `docker run`
 * line and a compose file, then waits for the agent's host to appear and come online.
 */
export function AgentEnrollment({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<Issued | null>(null);
  const create = useCreateEnrollmentToken();
  const hosts = useQuery({
    ...hostsQueryOptions(),
    ...(issued === null ? {} : { refetchInterval: WAIT_POLL_MS }),
  });
  const invalid = nameError(name);

  const issue = async () => {
    try {
      const token = await create.mutateAsync();
      const before = new Set((hosts.data ?? []).filter(isAgentHost).map((h) => h.id));
      setIssued({ ...token, before });
    } catch (err) {
      toast.error(errorText(err, 'Failed to create an enrollment token'));
    }
  };

  const env: AgentEnvironment | null =
    issued === null
      ? null
      : { berthUrl: window.location.origin, token: issued.token, name: invalid ? '' : name };
  const host = issued === null ? undefined : arrived(hosts.data, issued, name);

  return (
    <div className="space-y-4" data-testid="agent-enrollment">
      <p className="text-sm text-slate-400">
        The agent runs next to the host&apos;s Docker engine and dials out to Berth: no Docker API
        port to open, no certificates to make.
      </p>
      <div>
        <Label htmlFor="agent-name">Name (optional)</Label>
        <Input
          id="agent-name"
          value={name}
          placeholder="The machine's hostname"
          onChange={(e) => setName(e.target.value)}
        />
        {invalid !== undefined && <p className="mt-1 text-xs text-red-300">{invalid}</p>}
      </div>
      {env === null || issued === null ? (
        <Button onClick={() => void issue()} disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create enrollment token'}
        </Button>
      ) : (
        <>
          <p className="text-sm text-slate-300" data-testid="token-expiry">
            One-time enrollment token, valid until {formatTime(issued.expires_at)} (1 hour). Run
            this on the host:
          </p>
          <CopyBlock label="docker run" text={agentRunCommand(env)} />
          <p className="text-xs text-slate-500">
            Build the image from this repository first:
            <br />
            <code className="whitespace-nowrap text-slate-300">{AGENT_BUILD_COMMAND}</code>
          </p>
          {/* Folded: the dialog stays short enough to show the wait below without scrolling. */}
          <details className="text-sm text-slate-300">
            <summary className="cursor-pointer text-slate-400 hover:text-white">
              Or with Docker Compose
            </summary>
            <div className="mt-2">
              <CopyBlock label="Compose" text={agentComposeSnippet(env)} />
            </div>
          </details>
          {isPlainHttp(env.berthUrl) && (
            <p className="text-xs text-amber-300">
              Berth is reached over http://, so the agent is allowed to connect without TLS
              (BERTH_AGENT_INSECURE=1): its secret and engine traffic are not encrypted. Use an
              https:// address for production use.
            </p>
          )}
          <Waiting host={host} />
        </>
      )}
      <div className="flex justify-end gap-2">
        <Button variant={host?.status === 'online' ? 'primary' : 'secondary'} onClick={onClose}>
          {host?.status === 'online' ? 'Done' : 'Close'}
        </Button>
      </div>
    </div>
  );
}

/** Where the new agent is: not yet seen, enrolled, online. */
function Waiting({ host }: { host: Host | undefined }) {
  if (host?.status === 'online')
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-emerald-300">
        <CheckCircle2 className="h-4 w-4" /> Agent host &quot;{host.name}&quot; is online
      </p>
    );
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-slate-400">
      <Loader2 className="h-4 w-4 animate-spin" />
      {host === undefined
        ? 'Waiting for the agent to connect…'
        : `Agent host "${host.name}" enrolled, waiting for it to come online…`}
    </p>
  );
}

/** A command to copy, whole, with one click. */
function CopyBlock({ label, text }: { label: string; text: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(`${label} copied`);
    } catch {
      // No clipboard outside a secure context (http:// on another machine): select it instead.
      toast.error('Copy failed: select the text and copy it');
    }
  };
  return (
    <div className="overflow-hidden rounded-lg border border-slate-800 bg-slate-950">
      {/* The button sits above the text, never over a long first line. */}
      <div className="flex items-center justify-between border-b border-slate-800 px-3 py-1.5">
        <span className="text-xs font-medium text-slate-400">{label}</span>
        <Button
          size="xs"
          variant="secondary"
          aria-label={`Copy ${label}`}
          onClick={() => void copy()}
        >
          <Copy className="h-3.5 w-3.5" /> Copy
        </Button>
      </div>
      <pre
        aria-label={label}
        className="max-h-40 overflow-auto p-3 font-mono text-xs whitespace-pre text-slate-200"
      >
        {text}
      </pre>
    </div>
  );
}
