import type { Image } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { ResourceView, useResourceScope } from '@/components/resource-list/resource-view';
import { useCan } from '@/hooks/use-can';
import { imagesQueryOptions } from '../api/images-api';
import { PruneDialog, RemoveImageDialog } from './image-dialogs';
import { ImageDetailsDialog } from './image-details-dialog';
import { IMAGE_LIST } from './images-table';
import { PullDialog } from './pull-dialog';

/**
 * The images list with its search, pull and prune: the fleet's with a host filter, or one
 * host's (`hostId`, the host modal's tab). A table, or cards on a phone.
 */
export function ImagesView({ hostId: fixedHost = null }: { hostId?: string | null }) {
  const can = useCan('operate');
  const scope = useResourceScope(fixedHost);
  const images = useQuery(imagesQueryOptions(scope.hostId));
  return (
    <ResourceView<Image>
      scope={scope}
      spec={IMAGE_LIST}
      all={images.data?.images}
      list={images}
      can={can}
      // The view's `create` dialog is the pull.
      create={{ icon: Download, label: 'Pull' }}
      failed={images.data?.failed_hosts ?? []}
      dialogs={(open, close) => {
        const host = { hosts: scope.hostList, hostId: fixedHost, onClose: close };
        if (open?.kind === 'inspect')
          return <ImageDetailsDialog image={open.item} onClose={close} />;
        if (open?.kind === 'remove') return <RemoveImageDialog image={open.item} onClose={close} />;
        if (open?.kind === 'create') return <PullDialog {...host} />;
        if (open?.kind === 'prune') return <PruneDialog {...host} />;
        return null;
      }}
    />
  );
}
