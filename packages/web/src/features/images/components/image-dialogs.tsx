import type { Image } from '@berth/contracts';
import { toast } from 'sonner';
import {
  PruneResourceDialog,
  RemoveResourceDialog,
} from '@/components/resource-list/resource-dialogs';
import type { HostDialogProps } from '@/components/resource-list/resource-view';
import { formatBytes } from '@/lib/format';
import { IMAGES_KEY, prunePreviewQueryOptions, pruneImages, removeImage } from '../api/images-api';
import { imageName } from './images-table';

/**
 * Remove an image. One a container uses is named with its containers: the plain remove is
 * refused by the engine in its words (shown here), and the force, which a stopped container
 * allows, is a second confirm that names them again.
 */
export function RemoveImageDialog({ image, onClose }: { image: Image; onClose: () => void }) {
  const names = image.used_by.map((u) => `${u.name} (${u.state})`).join(', ');
  return (
    <RemoveResourceDialog
      noun="image"
      users={image.used_by}
      usersTestId="image-users"
      usersHeading="In use by:"
      describe={(force) =>
        force
          ? `Force removes ${imageName(image)} although ${names} use${image.used_by.length === 1 ? 's' : ''} it. A running container's image cannot be removed even so.`
          : `${imageName(image)} (${image.short_id}) on ${image.host_name}, ${formatBytes(image.size)}.`
      }
      canForce
      remove={(force) => removeImage(image.host_id, image.id, force)}
      onRemoved={(answer) =>
        toast.success(
          `Image ${imageName(image)} removed (${answer.deleted.length} deleted, ${answer.untagged.length} untagged)`,
        )
      }
      queryKey={IMAGES_KEY}
      onClose={onClose}
    />
  );
}

/**
 * Prune dangling images: the dry run's count and space first (from the list, as the engine
 * would choose), then the engine's prune and what it says it removed.
 */
export function PruneDialog({ hosts, hostId, onClose }: HostDialogProps) {
  return (
    <PruneResourceDialog
      title="Prune dangling images"
      hosts={hosts}
      hostId={hostId}
      preview={prunePreviewQueryOptions}
      countOf={(p) => p?.count ?? 0}
      counting="Counting dangling images…"
      showPreview={(p, count) => (
        <p data-testid="prune-preview" className="text-slate-200">
          {count === 0
            ? 'No dangling images to remove.'
            : `${count} dangling image${count === 1 ? '' : 's'}, up to ${formatBytes(p.space)} freed.`}{' '}
          Images a container uses, and pulls under way, are left alone.
        </p>
      )}
      prune={(host) => pruneImages(host)}
      showResult={(done) => (
        <p data-testid="prune-result" className="text-slate-200">
          Removed {done.count} image{done.count === 1 ? '' : 's'}, freed{' '}
          {formatBytes(done.space_reclaimed)}.
        </p>
      )}
      queryKey={IMAGES_KEY}
      onClose={onClose}
    />
  );
}
