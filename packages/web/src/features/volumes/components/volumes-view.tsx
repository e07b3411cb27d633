import type { Volume } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Database, Plus, Search, Trash } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { usePhone } from '@/hooks/use-breakpoint';
import { useCan } from '@/hooks/use-can';
import { errorText } from '@/lib/api-client';
import { hostsQueryOptions } from '@/lib/queries';
import { volumesQueryOptions } from '../api/volumes-api';
import {
  CreateVolumeDialog,
  PruneVolumesDialog,
  RemoveVolumeDialog,
  VolumeDetailsDialog,
} from './volume-dialogs';
import { VolumeCards, VolumesTable, type VolumeActions } from './volumes-table';

type Open =
  | { kind: 'inspect'; volume: Volume }
  | { kind: 'remove'; volume: Volume }
  | { kind: 'create' }
  | { kind: 'prune' }
  | null;

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
  const phone = usePhone();
  const canChange = useCan('admin');
  const [hostFilter, setHostFilter] = useState('');
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search.trim().toLowerCase());
  const [open, setOpen] = useState<Open>(null);
  const hostId = fixedHost ?? (hostFilter === '' ? null : hostFilter);
  const volumes = useQuery(volumesQueryOptions(hostId));
  const hosts = useQuery(hostsQueryOptions());
  const hostList = useMemo(
    () =>
      (hosts.data ?? [])
        .filter((h) => fixedHost === null || h.id === fixedHost)
        .map((h) => ({ id: h.id, name: h.name })),
    [hosts.data, fixedHost],
  );
  const shown = useMemo(
    () => (volumes.data?.volumes ?? []).filter((v) => matches(v, query)),
    [volumes.data, query],
  );
  const actions = useMemo<VolumeActions>(
    () => ({
      inspect: (volume) => setOpen({ kind: 'inspect', volume }),
      remove: (volume) => setOpen({ kind: 'remove', volume }),
      canChange,
    }),
    [canChange],
  );
  const total = volumes.data?.volumes.length ?? 0;
  const touch = phone ? 'touch' : 'sm';
  const failed = (volumes.data?.hosts ?? []).filter((h) => h.error !== null);

  return (
    <div
      className="space-y-4"
      data-testid={fixedHost === null ? 'volumes-view' : 'host-volumes-view'}
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
            aria-label="Search volumes"
            placeholder="Search name, driver, container, label…"
            className="pl-8"
            size={phone ? 'touch' : 'md'}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <span className="text-sm text-slate-400" data-testid="volume-count">
          {shown.length === total ? `${total} volume(s)` : `${shown.length} of ${total} volume(s)`}
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
      {volumes.data?.sizes_note != null && (
        <p className="text-xs text-slate-400" data-testid="sizes-note">
          {volumes.data.sizes_note}
        </p>
      )}
      {volumes.error !== null && (
        <p role="alert" className="text-sm text-red-400">
          {errorText(volumes.error)}
        </p>
      )}
      {volumes.isPending ? (
        <p className="text-sm text-slate-400">Loading volumes…</p>
      ) : shown.length === 0 ? (
        <EmptyState icon={Database} title={total === 0 ? 'No volumes' : 'No volume matches'} />
      ) : phone ? (
        <VolumeCards volumes={shown} actions={actions} />
      ) : (
        <VolumesTable volumes={shown} actions={actions} showHost={fixedHost === null} />
      )}

      {open?.kind === 'inspect' && (
        <VolumeDetailsDialog volume={open.volume} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'remove' && (
        <RemoveVolumeDialog volume={open.volume} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'create' && (
        <CreateVolumeDialog hosts={hostList} hostId={fixedHost} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'prune' && (
        <PruneVolumesDialog hosts={hostList} hostId={fixedHost} onClose={() => setOpen(null)} />
      )}
    </div>
  );
}
