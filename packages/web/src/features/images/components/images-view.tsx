import type { Image } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Download, HardDrive } from 'lucide-react';
import {
  ResourceView,
  useOpenDialog,
  useResourceScope,
  useShown,
} from '@/components/resource-list/resource-view';
import { useCan } from '@/hooks/use-can';
import { imagesQueryOptions } from '../api/images-api';
import { PruneDialog, RemoveImageDialog } from './image-dialogs';
import { ImageDetailsDialog } from './image-details-dialog';
import { ImageList } from './images-table';
import { PullDialog } from './pull-dialog';

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
  const canOperate = useCan('operate');
  const scope = useResourceScope(fixedHost);
  // `create` is the pull here.
  const { open, setOpen, close, actions } = useOpenDialog<Image>();
  const images = useQuery(imagesQueryOptions(scope.hostId));
  const shown = useShown(images.data?.images, scope.query, matches);
  const hosts = scope.hostList;

  return (
    <ResourceView
      scope={scope}
      noun="image"
      testId="images-view"
      search={{ label: 'Search images', placeholder: 'Search tag, id, container…' }}
      shown={shown.length}
      total={images.data?.images.length ?? 0}
      create={
        canOperate
          ? { icon: Download, label: 'Pull', onClick: () => setOpen({ kind: 'create' }) }
          : undefined
      }
      onPrune={canOperate ? () => setOpen({ kind: 'prune' }) : undefined}
      failed={images.data?.failed_hosts ?? []}
      error={images.error}
      pending={images.isPending}
      empty={HardDrive}
      list={(phone) => (
        <ImageList
          phone={phone}
          images={shown}
          actions={actions}
          canOperate={canOperate}
          showHost={fixedHost === null}
        />
      )}
    >
      {open?.kind === 'inspect' && <ImageDetailsDialog image={open.item} onClose={close} />}
      {open?.kind === 'remove' && <RemoveImageDialog image={open.item} onClose={close} />}
      {open?.kind === 'create' && <PullDialog hosts={hosts} hostId={fixedHost} onClose={close} />}
      {open?.kind === 'prune' && <PruneDialog hosts={hosts} hostId={fixedHost} onClose={close} />}
    </ResourceView>
  );
}
