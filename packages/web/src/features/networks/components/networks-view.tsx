import type { Network } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { ResourceView, useResourceScope } from '@/components/resource-list/resource-view';
import { useCan } from '@/hooks/use-can';
import { networksQueryOptions } from '../api/networks-api';
import {
  CreateNetworkDialog,
  NetworkDetailsDialog,
  PruneNetworksDialog,
  RemoveNetworkDialog,
} from './network-dialogs';
import { NETWORK_LIST } from './networks-table';

/**
 * The networks list with its search, create and prune: the fleet's with a host filter, or one
 * host's (`hostId`, the host modal's tab). A table, or cards on a phone. Changes are for admins:
 * a network's removal or a new subnet changes how every container on the host is reached.
 */
export function NetworksView({ hostId: fixedHost = null }: { hostId?: string | null }) {
  const can = useCan('admin');
  const scope = useResourceScope(fixedHost);
  const networks = useQuery(networksQueryOptions(scope.hostId));
  return (
    <ResourceView<Network>
      scope={scope}
      spec={NETWORK_LIST}
      all={networks.data?.networks}
      list={networks}
      can={can}
      create={{ icon: Plus, label: 'Create' }}
      failed={networks.data?.hosts ?? []}
      dialogs={(open, close) => {
        const host = { hosts: scope.hostList, hostId: fixedHost, onClose: close };
        if (open?.kind === 'inspect')
          return <NetworkDetailsDialog network={open.item} onClose={close} />;
        if (open?.kind === 'remove')
          return <RemoveNetworkDialog network={open.item} onClose={close} />;
        if (open?.kind === 'create') return <CreateNetworkDialog {...host} />;
        if (open?.kind === 'prune') return <PruneNetworksDialog {...host} />;
        return null;
      }}
    />
  );
}
