import type { Host } from '@berth/contracts';
import { KeyRound, Maximize2, Pencil, ShieldAlert, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { HostStatusBadge } from '@/components/host-status';
import { InfoRow, PerfTile, Section } from '@/components/detail-section';
import { Button } from '@/components/ui/button';
import { Sheet } from '@/components/ui/sheet';
import { formatAgo, formatBytes, formatPercent, formatRate } from '@/lib/format';
import { HostUptime } from '@/components/host-uptime';
import { useHostDetail } from '../api/hosts-api';
import { HostContainersCard } from './host-containers-card';
import { HostRecentEvents } from './host-recent-events';
import { HostTagsEditor } from './host-tags-editor';
import { AgentInfoRows, connectionLabel, InsecureAgentWarning, isAgentHost } from './connection';
import { RotateSecretDialog } from './rotate-secret-dialog';

const DRAWER_WIDTH = 600;

/** Secure when https or security_status says so. */
export const isSecure = (h: Host) => h.url.startsWith('https://') || h.security_status === 'secure';

/** The port shown when the URL names none: 443 for https, 80 for http, 2375 otherwise. */
export function defaultPort(url: string): string {
  const explicit = /^[a-z]+:\/\/[^/]*:(\d+)/.exec(url)?.[1];
  if (explicit !== undefined) return explicit;
  if (url.startsWith('https://')) return '443';
  if (url.startsWith('http://')) return '80';
  return '2375';
}

const CONNECTION_TEXT: Record<Host['status'], string> = {
  online: 'Connected',
  offline: 'Disconnected',
  error: 'Disconnected',
  degraded: 'Connection Issues',
};

export function HostDrawer({
  hostId,
  onClose,
  onExpand,
  onEdit,
}: {
  hostId: string;
  onClose: () => void;
  onExpand: () => void;
  onEdit: () => void;
}) {
  const host = useHostDetail(hostId).data;
  return (
    <Sheet
      open
      onOpenChange={(open) => !open && onClose()}
      title={host?.name ?? 'Host'}
      width={DRAWER_WIDTH}
      actions={
        <>
          <Button size="sm" variant="ghost" onClick={onExpand}>
            <Maximize2 className="h-4 w-4" /> Expand
          </Button>
          <Button size="sm" variant="secondary" onClick={onEdit}>
            <Pencil className="h-4 w-4" /> Edit Host
          </Button>
        </>
      }
    >
      {host === undefined ? (
        <p className="text-sm text-slate-400">Loading…</p>
      ) : (
        <DrawerBody host={host} />
      )}
    </Sheet>
  );
}

/** The Security row: TLS or not; for an agent, its own connection (wss or ws). */
function Security({ host }: { host: Host }) {
  if (isAgentHost(host) && host.security_status === 'insecure') return <InsecureAgentWarning />;
  if (isAgentHost(host) && host.security_status === 'unknown')
    return <span className="text-slate-400">Not connected yet</span>;
  return isSecure(host) ? (
    <span className="inline-flex items-center gap-1 text-emerald-300">
      <ShieldCheck className="h-4 w-4" /> Secure (TLS)
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 text-amber-300">
      <ShieldAlert className="h-4 w-4" /> Docker API traffic is not encrypted. Enable TLS for
      production use.
    </span>
  );
}

function DrawerBody({ host }: { host: Host }) {
  const [rotating, setRotating] = useState(false);
  const agent = isAgentHost(host);
  return (
    <div data-testid="host-drawer">
      <Section title="Connection">
        <dl>
          <InfoRow label="Status">
            <span data-testid="connection-status">{CONNECTION_TEXT[host.status]}</span>
            {host.status === 'online' && (
              <span className="ml-2 text-xs text-slate-500">
                checked {formatAgo(host.last_checked)}
              </span>
            )}
            {host.error !== null && <div className="text-xs text-red-300">{host.error}</div>}
          </InfoRow>
          <InfoRow label="Endpoint">{host.url}</InfoRow>
          <InfoRow label="Type">
            <span data-testid="drawer-connection-type">{connectionLabel(host)}</span>
            {agent && (
              <Button
                size="xs"
                variant="secondary"
                className="ml-3"
                onClick={() => setRotating(true)}
              >
                <KeyRound className="h-3.5 w-3.5" /> Rotate secret
              </Button>
            )}
          </InfoRow>
          <AgentInfoRows host={host} testIdPrefix="drawer" />
          <InfoRow label="Port">
            {host.url.startsWith('unix://') || agent ? '—' : defaultPort(host.url)}
          </InfoRow>
          <InfoRow label="Security">
            <Security host={host} />
          </InfoRow>
        </dl>
      </Section>
      <Section title="Overview">
        <dl>
          <InfoRow label="Name">{host.name}</InfoRow>
          <InfoRow label="Status">
            <HostStatusBadge status={host.status} />
          </InfoRow>
          <InfoRow label="Uptime">
            <HostUptime host={host} detailed />
          </InfoRow>
          <InfoRow label="OS">{host.os_version ?? '—'}</InfoRow>
          <InfoRow label="Engine">{host.docker_version ?? '—'}</InfoRow>
          <InfoRow label="Description">{host.description ?? '—'}</InfoRow>
          <InfoRow label="Tags">
            <HostTagsEditor host={host} />
          </InfoRow>
        </dl>
      </Section>
      <Section title="Performance">
        {host.stats === null || host.sparklines === null ? (
          <p className="text-sm text-slate-500">No stats available</p>
        ) : (
          <div className="grid grid-cols-3 gap-4" data-testid="drawer-performance">
            <PerfTile
              label="CPU"
              value={formatPercent(host.stats.cpu_percent)}
              values={host.sparklines.cpu}
              max={100}
            />
            <PerfTile
              label="Memory"
              value={`${formatPercent(host.stats.mem_percent)} · ${formatBytes(host.stats.mem_bytes)}`}
              values={host.sparklines.mem}
              max={100}
            />
            <PerfTile
              label="Network"
              value={formatRate(host.stats.net_bytes_per_sec)}
              values={host.sparklines.net}
            />
          </div>
        )}
      </Section>
      <Section title="Containers">
        <HostContainersCard hostId={host.id} />
        <Link
          to={`/containers?hostId=${host.id}`}
          className="mt-2 inline-block text-sm text-sky-400 hover:underline"
        >
          view all containers on this host
        </Link>
      </Section>
      <Section title="Recent Events">
        <HostRecentEvents hostId={host.id} limit={5} />
        <Link
          to={`/events?host_id=${host.id}`}
          className="mt-2 inline-block text-sm text-sky-400 hover:underline"
        >
          view all events for this host
        </Link>
      </Section>
      {rotating && <RotateSecretDialog host={host} onClose={() => setRotating(false)} />}
    </div>
  );
}
