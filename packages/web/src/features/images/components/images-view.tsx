import type { Image } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Download, HardDrive, Search, Trash } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { useCan } from '@/hooks/use-can';
import { usePhone } from '@/hooks/use-breakpoint';
import { errorText } from '@/lib/api-client';
import { hostsQueryOptions } from '@/lib/queries';
import { imagesQueryOptions } from '../api/images-api';
import { PruneDialog, RemoveImageDialog } from './image-dialogs';
import { ImageDetailsDialog } from './image-details-dialog';
import { ImageCards, ImagesTable, type ImageActions } from './images-table';
import { PullDialog } from './pull-dialog';

type Open =
  | { kind: 'inspect'; image: Image }
  | { kind: 'remove'; image: Image }
  | { kind: 'pull' }
  | { kind: 'prune' }
  | null;

/** Whether an image matches the search: its tags, id, host, or a container using it. */
function matches(i: Image, q: string): boolean {
  if (q === '') return true;
  return (
    i.tags.some((t) => t.toLowerCase().includes(q)) ||
    i.id.includes(q) ||
    i.host_name.toLowerCase().includes(q) ||
    i.used_by.some((u) => u.name.toLowerCase().includes(q)) ||
    (q === 'dangling' && i.dangling) ||
    (q === 'unused' && i.unused)
  );
}

/**
 * The images list with its search, pull and prune: the fleet's with a host filter, or one
 * host's (`hostId`, the host modal's tab). A table, or cards on a phone.
 */
export function ImagesView({ hostId: fixedHost = null }: { hostId?: string | null }) {
  const phone = usePhone();
  const canOperate = useCan('operate');
  const [hostFilter, setHostFilter] = useState<string>('');
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search.trim().toLowerCase());
  const [open, setOpen] = useState<Open>(null);
  const hostId = fixedHost ?? (hostFilter === '' ? null : hostFilter);
  const images = useQuery(imagesQueryOptions(hostId));
  const hosts = useQuery(hostsQueryOptions());
  const hostList = useMemo(
    () =>
      (hosts.data ?? [])
        .filter((h) => fixedHost === null || h.id === fixedHost)
        .map((h) => ({ id: h.id, name: h.name })),
    [hosts.data, fixedHost],
  );
  const shown = useMemo(
    () => (images.data?.images ?? []).filter((i) => matches(i, query)),
    [images.data, query],
  );
  const actions = useMemo<ImageActions>(
    () => ({
      inspect: (image) => setOpen({ kind: 'inspect', image }),
      remove: (image) => setOpen({ kind: 'remove', image }),
      canOperate,
    }),
    [canOperate],
  );
  const total = images.data?.images.length ?? 0;
  const touch = phone ? 'touch' : 'sm';

  return (
    <div
      className="space-y-4"
      data-testid={fixedHost === null ? 'images-view' : 'host-images-view'}
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
            aria-label="Search images"
            placeholder="Search tag, id, container…"
            className="pl-8"
            size={phone ? 'touch' : 'md'}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <span className="text-sm text-slate-400" data-testid="image-count">
          {shown.length === total ? `${total} image(s)` : `${shown.length} of ${total} image(s)`}
        </span>
        {canOperate && (
          <>
            <Button size={touch} onClick={() => setOpen({ kind: 'pull' })}>
              <Download className="h-4 w-4" aria-hidden /> Pull
            </Button>
            <Button variant="secondary" size={touch} onClick={() => setOpen({ kind: 'prune' })}>
              <Trash className="h-4 w-4" aria-hidden /> Prune
            </Button>
          </>
        )}
      </div>

      {(images.data?.failed_hosts ?? []).map((f) => (
        <p key={f.host_id} role="alert" className="text-sm text-amber-300">
          {f.host_name}: {f.error}
        </p>
      ))}
      {images.error !== null && (
        <p role="alert" className="text-sm text-red-400">
          {errorText(images.error)}
        </p>
      )}
      {images.isPending ? (
        <p className="text-sm text-slate-400">Loading images…</p>
      ) : shown.length === 0 ? (
        <EmptyState icon={HardDrive} title={total === 0 ? 'No images' : 'No image matches'} />
      ) : phone ? (
        <ImageCards images={shown} actions={actions} />
      ) : (
        <ImagesTable images={shown} actions={actions} showHost={fixedHost === null} />
      )}

      {open?.kind === 'inspect' && (
        <ImageDetailsDialog image={open.image} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'remove' && (
        <RemoveImageDialog image={open.image} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'pull' && (
        <PullDialog hosts={hostList} hostId={fixedHost} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'prune' && (
        <PruneDialog hosts={hostList} hostId={fixedHost} onClose={() => setOpen(null)} />
      )}
    </div>
  );
}
