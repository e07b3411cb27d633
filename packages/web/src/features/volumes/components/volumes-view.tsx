import type { Volume } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { ResourceView, useResourceScope } from '@/components/resource-list/resource-view';
import { useCan } from '@/hooks/use-can';
import { volumesQueryOptions } from '../api/volumes-api';
import {
  CreateVolumeDialog,
  PruneVolumesDialog,
  RemoveVolumeDialog,
  VolumeDetailsDialog,
} from './volume-dialogs';
import { VOLUME_LIST } from './volumes-table';

/**
 * The volumes list with its search, create and prune: the fleet's with a host filter, or one
 * host's (`hostId`, the host modal's tab). A table, or cards on a phone. Changes are for admins:
 * a volume's removal deletes its data.
 */
export function VolumesView({ hostId: fixedHost = null }: { hostId?: string | null }) {
  const can = useCan('admin');
  const scope = useResourceScope(fixedHost);
  const volumes = useQuery(volumesQueryOptions(scope.hostId));
  return (
    <ResourceView<Volume>
      scope={scope}
      spec={VOLUME_LIST}
      all={volumes.data?.volumes}
      list={volumes}
      can={can}
      create={{ icon: Plus, label: 'Create' }}
      failed={volumes.data?.hosts ?? []}
      notice={
        volumes.data?.sizes_note != null && (
          <p className="text-xs text-slate-400" data-testid="sizes-note">
            {volumes.data.sizes_note}
          </p>
        )
      }
      dialogs={(open, close) => {
        const host = { hosts: scope.hostList, hostId: fixedHost, onClose: close };
        if (open?.kind === 'inspect')
          return <VolumeDetailsDialog volume={open.item} onClose={close} />;
        if (open?.kind === 'remove')
          return <RemoveVolumeDialog volume={open.item} onClose={close} />;
        if (open?.kind === 'create') return <CreateVolumeDialog {...host} />;
        if (open?.kind === 'prune') return <PruneVolumesDialog {...host} />;
        return null;
      }}
    />
  );
}
