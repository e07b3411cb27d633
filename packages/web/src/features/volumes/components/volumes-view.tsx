import type { Volume } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Database, Plus } from 'lucide-react';
import {
  ResourceView,
  useOpenDialog,
  useResourceScope,
  useShown,
} from '@/components/resource-list/resource-view';
import { useCan } from '@/hooks/use-can';
import { volumesQueryOptions } from '../api/volumes-api';
import {
  CreateVolumeDialog,
  PruneVolumesDialog,
  RemoveVolumeDialog,
  VolumeDetailsDialog,
} from './volume-dialogs';
import { VolumeList } from './volumes-table';

/** Whether a volume matches the search: name, driver, host, a container, a label, `unused`. */
function matches(v: Volume, q: string): boolean {
  if (q === '') return true;
  return (
    v.name.toLowerCase().includes(q) ||
    v.driver.toLowerCase().includes(q) ||
    v.host_name.toLowerCase().includes(q) ||
    v.in_use_by.some((u) => u.name.toLowerCase().includes(q)) ||
    Object.entries(v.labels).some(([k, val]) => `${k}=${val}`.toLowerCase().includes(q)) ||
    (q === 'unused' && v.in_use_by.length === 0)
  );
}

/**
 * The volumes list with its search, create and prune: the fleet's with a host filter, or one
 * host's (`hostId`, the host modal's tab). A table, or cards on a phone. Changes are for admins:
 * a volume's removal deletes its data.
 */
export function VolumesView({ hostId: fixedHost = null }: { hostId?: string | null }) {
  const canChange = useCan('admin');
  const scope = useResourceScope(fixedHost);
  const { open, setOpen, close, actions } = useOpenDialog<Volume>();
  const volumes = useQuery(volumesQueryOptions(scope.hostId));
  const shown = useShown(volumes.data?.volumes, scope.query, matches);
  const hosts = scope.hostList;

  return (
    <ResourceView
      scope={scope}
      noun="volume"
      testId="volumes-view"
      search={{
        label: 'Search volumes',
        placeholder: 'Search name, driver, container, label…',
      }}
      shown={shown.length}
      total={volumes.data?.volumes.length ?? 0}
      create={
        canChange
          ? { icon: Plus, label: 'Create', onClick: () => setOpen({ kind: 'create' }) }
          : undefined
      }
      onPrune={canChange ? () => setOpen({ kind: 'prune' }) : undefined}
      failed={volumes.data?.hosts ?? []}
      notice={
        volumes.data?.sizes_note != null && (
          <p className="text-xs text-slate-400" data-testid="sizes-note">
            {volumes.data.sizes_note}
          </p>
        )
      }
      error={volumes.error}
      pending={volumes.isPending}
      empty={Database}
      list={(phone) => (
        <VolumeList
          phone={phone}
          volumes={shown}
          actions={actions}
          canChange={canChange}
          showHost={fixedHost === null}
        />
      )}
    >
      {open?.kind === 'inspect' && <VolumeDetailsDialog volume={open.item} onClose={close} />}
      {open?.kind === 'remove' && <RemoveVolumeDialog volume={open.item} onClose={close} />}
      {open?.kind === 'create' && (
        <CreateVolumeDialog hosts={hosts} hostId={fixedHost} onClose={close} />
      )}
      {open?.kind === 'prune' && (
        <PruneVolumesDialog hosts={hosts} hostId={fixedHost} onClose={close} />
      )}
    </ResourceView>
  );
}
