import type { Network } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Network as NetworkIcon, Plus, Search, Trash } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { usePhone } from '@/hooks/use-breakpoint';
import { useCan } from '@/hooks/use-can';
import { errorText } from '@/lib/api-client';
import { hostsQueryOptions } from '@/lib/queries';
import { networksQueryOptions } from '../api/networks-api';
import {
  CreateNetworkDialog,
  NetworkDetailsDialog,
  PruneNetworksDialog,
  RemoveNetworkDialog,
} from './network-dialogs';
import { NetworkCards, NetworksTable, subnetText, type NetworkActions } from './networks-table';

type Open =
  | { kind: 'inspect'; network: Network }
  | { kind: 'remove'; network: Network }
  | { kind: 'create' }
  | { kind: 'prune' }
  | null;

/** Whether a network matches the search: name, id, driver, subnet, host, a container, `unused`. */
function matches(n: Network, q: string): boolean {
  if (q === '') return true;
  return (
    n.name.toLowerCase().includes(q) ||
    n.id.startsWith(q) ||
    n.driver.toLowerCase().includes(q) ||
    subnetText(n).includes(q) ||
    n.host_name.toLowerCase().includes(q) ||
    n.in_use_by.some((u) => u.name.toLowerCase().includes(q)) ||
    (q === 'unused' && !n.builtin && n.in_use_by.length === 0)
  );
}

/**
 * The networks list with its search, create and prune: the fleet's with a host filter, or one
 * host's (`hostId`, the host modal's tab). A table, or cards on a phone. Changes are for admins:
 * a network's removal or a new subnet changes how every container on the host is reached.
 */
export function NetworksView({ hostId: fixedHost = null }: { hostId?: string | null }) {
  const phone = usePhone();
  const canChange = useCan('admin');
  const [hostFilter, setHostFilter] = useState('');
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search.trim().toLowerCase());
  const [open, setOpen] = useState<Open>(null);
  const hostId = fixedHost ?? (hostFilter === '' ? null : hostFilter);
  const networks = useQuery(networksQueryOptions(hostId));
  const hosts = useQuery(hostsQueryOptions());
  const hostList = useMemo(
    () =>
      (hosts.data ?? [])
        .filter((h) => fixedHost === null || h.id === fixedHost)
        .map((h) => ({ id: h.id, name: h.name })),
    [hosts.data, fixedHost],
  );
  const shown = useMemo(
    () => (networks.data?.networks ?? []).filter((n) => matches(n, query)),
    [networks.data, query],
  );
  const actions = useMemo<NetworkActions>(
    () => ({
      inspect: (network) => setOpen({ kind: 'inspect', network }),
      remove: (network) => setOpen({ kind: 'remove', network }),
      canChange,
    }),
    [canChange],
  );
  const total = networks.data?.networks.length ?? 0;
  const touch = phone ? 'touch' : 'sm';
  const failed = (networks.data?.hosts ?? []).filter((h) => h.error !== null);

  return (
    <div
      className="space-y-4"
      data-testid={fixedHost === null ? 'networks-view' : 'host-networks-view'}
    >
      <div className="flex flex-wrap items-center gap-2">
        {fixedHost === null && (
          <Select
            aria-label="Host filter"
            value={hostFilter}
            onChange={(e) => setHostFilter(e.target.value)}
            size={phone ? 'touch' : 'md'}
          >
            <option value="">All hosts</option>
            {hostList.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name}
              </option>
            ))}
          </Select>
        )}
        <div className="relative min-w-48 flex-1">
          <Search
            className="pointer-events-none absolute top-1/2 left-2 h-4 w-4 -translate-y-1/2 text-slate-500"
            aria-hidden
          />
          <Input
            aria-label="Search networks"
            placeholder="Search name, subnet, container…"
            className="pl-8"
            size={phone ? 'touch' : 'md'}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <span className="text-sm text-slate-400" data-testid="network-count">
          {shown.length === total
            ? `${total} network(s)`
            : `${shown.length} of ${total} network(s)`}
        </span>
        {canChange && (
          <>
            <Button size={touch} onClick={() => setOpen({ kind: 'create' })}>
              <Plus className="h-4 w-4" aria-hidden /> Create
            </Button>
            <Button variant="secondary" size={touch} onClick={() => setOpen({ kind: 'prune' })}>
              <Trash className="h-4 w-4" aria-hidden /> Prune
            </Button>
          </>
        )}
      </div>

      {failed.map((f) => (
        <p key={f.host_id} role="alert" className="text-sm text-amber-300">
          {f.host_name}: {f.error}
        </p>
      ))}
      {networks.error !== null && (
        <p role="alert" className="text-sm text-red-400">
          {errorText(networks.error)}
        </p>
      )}
      {networks.isPending ? (
        <p className="text-sm text-slate-400">Loading networks…</p>
      ) : shown.length === 0 ? (
        <EmptyState icon={NetworkIcon} title={total === 0 ? 'No networks' : 'No network matches'} />
      ) : phone ? (
        <NetworkCards networks={shown} actions={actions} />
      ) : (
        <NetworksTable networks={shown} actions={actions} showHost={fixedHost === null} />
      )}

      {open?.kind === 'inspect' && (
        <NetworkDetailsDialog network={open.network} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'remove' && (
        <RemoveNetworkDialog network={open.network} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'create' && (
        <CreateNetworkDialog hosts={hostList} hostId={fixedHost} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'prune' && (
        <PruneNetworksDialog hosts={hostList} hostId={fixedHost} onClose={() => setOpen(null)} />
      )}
    </div>
  );
}
