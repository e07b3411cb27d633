import type { Image, ImagePruneResponse } from '@berth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';
import { IMAGES_KEY, prunePreviewQueryOptions, pruneImages, removeImage } from '../api/images-api';
import { imageName } from './images-table';

/**
 * Remove an image. One a container uses is named with its containers: the plain remove is
 * refused by the engine in its words (shown here), and the force, which a stopped container
 * allows, is a second confirm that names them again.
 */
export function RemoveImageDialog({ image, onClose }: { image: Image; onClose: () => void }) {
  const client = useQueryClient();
  const [force, setForce] = useState(false);
  const inUse = image.used_by.length > 0;
  const remove = useMutation({
    mutationFn: (withForce: boolean) => removeImage(image.host_id, image.id, withForce),
    onSuccess: (answer) => {
      toast.success(
        `Image ${imageName(image)} removed (${answer.deleted.length} deleted, ${answer.untagged.length} untagged)`,
      );
      void client.invalidateQueries({ queryKey: IMAGES_KEY });
      onClose();
    },
  });
  const names = image.used_by.map((u) => `${u.name} (${u.state})`).join(', ');
  return (
    <ConfirmDialog
      open
      title={force ? 'Force removal?' : 'Remove image?'}
      description={
        force
          ? `Force removes ${imageName(image)} although ${names} use${image.used_by.length === 1 ? 's' : ''} it. A running container's image cannot be removed even so.`
          : `${imageName(image)} (${image.short_id}) on ${image.host_name}, ${formatBytes(image.size)}.`
      }
      confirmLabel={force ? 'Force remove' : 'Remove'}
      danger
      busy={remove.isPending}
      onConfirm={() => remove.mutate(force)}
      onCancel={onClose}
    >
      <div className="mb-4 space-y-2 text-sm">
        {inUse && (
          <div data-testid="image-users" className="rounded-md border border-amber-500/40 p-2">
            <p className="text-amber-300">In use by:</p>
            <ul className="list-disc pl-5 text-slate-200">
              {image.used_by.map((u) => (
                <li key={u.id}>
                  {u.name} <span className="text-slate-400">({u.state})</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {remove.error !== null && (
          <p role="alert" data-testid="remove-error" className="text-red-400">
            {errorText(remove.error)}
          </p>
        )}
        {inUse && !force && (
          <Button variant="secondary" size="sm" onClick={() => setForce(true)}>
            Force…
          </Button>
        )}
      </div>
    </ConfirmDialog>
  );
}

/** A host picker for the fleet view's pull and prune (a host's own tab has its host). */
export function HostPicker({
  hosts,
  value,
  onChange,
}: {
  hosts: { id: string; name: string }[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm text-slate-300">
      Host
      <select
        aria-label="Host"
        className="h-10 rounded-md border border-slate-700 bg-slate-900 px-2 text-slate-100"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        {hosts.map((h) => (
          <option key={h.id} value={h.id}>
            {h.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Prune dangling images: the dry run's count and space first (from the list, as the engine
 * would choose), then the engine's prune and what it says it removed.
 */
export function PruneDialog({
  hosts,
  hostId: fixedHost,
  onClose,
}: {
  hosts: { id: string; name: string }[];
  hostId: string | null;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [hostId, setHostId] = useState(fixedHost ?? hosts[0]?.id ?? '');
  const preview = useQuery({ ...prunePreviewQueryOptions(hostId), enabled: hostId !== '' });
  const [done, setDone] = useState<ImagePruneResponse | null>(null);
  const prune = useMutation({
    mutationFn: () => pruneImages(hostId),
    onSuccess: (answer) => {
      setDone(answer);
      void client.invalidateQueries({ queryKey: IMAGES_KEY });
    },
  });
  const count = preview.data?.count ?? 0;
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Prune dangling images">
      <div className="space-y-4 text-sm" data-testid="prune-dialog">
        {fixedHost === null && !done && (
          <HostPicker hosts={hosts} value={hostId} onChange={setHostId} />
        )}
        {done !== null ? (
          <p data-testid="prune-result" className="text-slate-200">
            Removed {done.count} image{done.count === 1 ? '' : 's'}, freed{' '}
            {formatBytes(done.space_reclaimed)}.
          </p>
        ) : preview.isPending ? (
          <p className="text-slate-400">Counting dangling images…</p>
        ) : preview.error !== null ? (
          <p role="alert" className="text-red-400">
            {errorText(preview.error)}
          </p>
        ) : (
          <p data-testid="prune-preview" className="text-slate-200">
            {count === 0
              ? 'No dangling images to remove.'
              : `${count} dangling image${count === 1 ? '' : 's'}, up to ${formatBytes(preview.data.space)} freed.`}{' '}
            Images a container uses, and pulls under way, are left alone.
          </p>
        )}
        {prune.error !== null && (
          <p role="alert" className="text-red-400">
            {errorText(prune.error)}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {done === null ? 'Cancel' : 'Close'}
          </Button>
          {done === null && (
            <Button
              variant="danger"
              disabled={prune.isPending || count === 0}
              onClick={() => prune.mutate()}
            >
              {prune.isPending ? 'Pruning…' : `Prune ${count}`}
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}
