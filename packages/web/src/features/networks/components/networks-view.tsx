import type { Network } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Network as NetworkIcon, Plus } from 'lucide-react';
import {
  ResourceView,
  useOpenDialog,
  useResourceScope,
  useShown,
} from '@/components/resource-list/resource-view';
import { useCan } from '@/hooks/use-can';
import { networksQueryOptions } from '../api/networks-api';
import {
  CreateNetworkDialog,
  NetworkDetailsDialog,
  PruneNetworksDialog,
  RemoveNetworkDialog,
} from './network-dialogs';
import { NetworkList, subnetText } from './networks-table';

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
  const canChange = useCan('admin');
  const scope = useResourceScope(fixedHost);
  const { open, setOpen, close, actions } = useOpenDialog<Network>();
  const networks = useQuery(networksQueryOptions(scope.hostId));
  const shown = useShown(networks.data?.networks, scope.query, matches);
  const hosts = scope.hostList;

  return (
    <ResourceView
      scope={scope}
      noun="network"
      testId="networks-view"
      search={{ label: 'Search networks', placeholder: 'Search name, subnet, container…' }}
      shown={shown.length}
      total={networks.data?.networks.length ?? 0}
      create={
        canChange
          ? { icon: Plus, label: 'Create', onClick: () => setOpen({ kind: 'create' }) }
          : undefined
      }
      onPrune={canChange ? () => setOpen({ kind: 'prune' }) : undefined}
      failed={networks.data?.hosts ?? []}
      error={networks.error}
      pending={networks.isPending}
      empty={NetworkIcon}
      list={(phone) => (
        <NetworkList
          phone={phone}
          networks={shown}
          actions={actions}
          canChange={canChange}
          showHost={fixedHost === null}
        />
      )}
    >
      {open?.kind === 'inspect' && <NetworkDetailsDialog network={open.item} onClose={close} />}
      {open?.kind === 'remove' && <RemoveNetworkDialog network={open.item} onClose={close} />}
      {open?.kind === 'create' && (
        <CreateNetworkDialog hosts={hosts} hostId={fixedHost} onClose={close} />
      )}
      {open?.kind === 'prune' && (
        <PruneNetworksDialog hosts={hosts} hostId={fixedHost} onClose={close} />
      )}
    </ResourceView>
  );
}
