import type { ResourcePruneResult, Volume } from '@berth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { HostPicker } from '@/components/host-picker';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormFooter } from '@/components/ui/form-footer';
import { Input } from '@/components/ui/input';
import { errorText } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';
import { parseKeyValues } from '@/lib/key-values';
import {
  createVolume,
  pruneVolumes,
  removeVolume,
  VOLUMES_KEY,
  volumeDetailsQueryOptions,
  volumePrunePreviewQueryOptions,
} from '../api/volumes-api';

type HostChoice = { id: string; name: string };

/** A volume's inspect answer, read-only: the engine's JSON whole, after the main fields. */
export function VolumeDetailsDialog({ volume, onClose }: { volume: Volume; onClose: () => void }) {
  const details = useQuery(volumeDetailsQueryOptions(volume.host_id, volume.name));
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={volume.name} size="xl">
      <div className="max-h-[70vh] space-y-4 overflow-y-auto text-sm" data-testid="volume-details">
        <dl className="grid grid-cols-[8rem_1fr] gap-1 max-md:grid-cols-1">
          <dt className="text-slate-400">Host</dt>
          <dd>{volume.host_name}</dd>
          <dt className="text-slate-400">Driver</dt>
          <dd>{volume.driver}</dd>
          <dt className="text-slate-400">Mountpoint</dt>
          <dd className="break-all">{volume.mountpoint}</dd>
          <dt className="text-slate-400">Size</dt>
          <dd>{volume.size_bytes === null ? 'Not measured' : formatBytes(volume.size_bytes)}</dd>
          <dt className="text-slate-400">In use by</dt>
          <dd>
            {volume.in_use_by.length === 0
              ? 'No container (unused)'
              : volume.in_use_by.map((d) => `${d.name} (${d.state})`).join(', ')}
          </dd>
        </dl>
        {details.error !== null && (
          <p role="alert" className="text-red-400">
            {errorText(details.error)}
          </p>
        )}
        {details.data !== undefined && (
          <pre className="overflow-x-auto rounded-md bg-slate-950 p-3 font-mono text-xs text-slate-300">
            {JSON.stringify(details.data.raw, null, 2)}
          </pre>
        )}
      </div>
    </Dialog>
  );
}

/**
 * Remove a volume. One a container mounts is named with its containers; the engine refuses the
 * plain remove in its words (shown here). Force, a second confirm naming them again, removes the
 * stopped ones first; a running one must be stopped by hand.
 */
export function RemoveVolumeDialog({ volume, onClose }: { volume: Volume; onClose: () => void }) {
  const client = useQueryClient();
  const [force, setForce] = useState(false);
  const users = volume.in_use_by;
  const remove = useMutation({
    mutationFn: (withForce: boolean) => removeVolume(volume.host_id, volume.name, withForce),
    onSuccess: (answer) => {
      const also = answer.removed_containers;
      toast.success(
        `Volume ${volume.name} removed${also.length === 0 ? '' : ` with ${also.join(', ')}`}`,
      );
      void client.invalidateQueries({ queryKey: VOLUMES_KEY });
      onClose();
    },
  });
  const names = users.map((u) => u.name).join(', ');
  return (
    <ConfirmDialog
      open
      title={force ? 'Force removal?' : 'Remove volume?'}
      description={
        force
          ? `Removes the stopped container${users.length === 1 ? '' : 's'} ${names} and then ${volume.name} with its data. This cannot be undone.`
          : `${volume.name} on ${volume.host_name} and all its data. This cannot be undone.`
      }
      confirmLabel={force ? 'Force remove' : 'Remove'}
      danger
      busy={remove.isPending}
      onConfirm={() => remove.mutate(force)}
      onCancel={onClose}
    >
      <div className="mb-4 space-y-2 text-sm">
        {users.length > 0 && (
          <div data-testid="volume-users" className="rounded-md border border-amber-500/40 p-2">
            <p className="text-amber-300">In use by:</p>
            <ul className="list-disc pl-5 text-slate-200">
              {users.map((u) => (
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
        {users.length > 0 && !force && (
          <Button variant="secondary" size="sm" onClick={() => setForce(true)}>
            Force…
          </Button>
        )}
      </div>
    </ConfirmDialog>
  );
}

/**
 * Prune unused volumes: the dry run's names, count and space first; the prune then removes
 * those names only, skipping those a container took meanwhile.
 */
export function PruneVolumesDialog({
  hosts,
  hostId: fixedHost,
  onClose,
}: {
  hosts: HostChoice[];
  hostId: string | null;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [hostId, setHostId] = useState(fixedHost ?? hosts[0]?.id ?? '');
  const preview = useQuery({ ...volumePrunePreviewQueryOptions(hostId), enabled: hostId !== '' });
  const [done, setDone] = useState<ResourcePruneResult | null>(null);
  const names = preview.data?.names ?? [];
  const prune = useMutation({
    mutationFn: () => pruneVolumes(hostId, names),
    onSuccess: (answer) => {
      setDone(answer);
      void client.invalidateQueries({ queryKey: VOLUMES_KEY });
    },
  });
  const count = names.length;
  const space = preview.data?.space_bytes ?? null;
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Prune unused volumes">
      <div className="space-y-4 text-sm" data-testid="prune-dialog">
        {fixedHost === null && done === null && (
          <HostPicker hosts={hosts} value={hostId} onChange={setHostId} />
        )}
        {done !== null ? (
          <div data-testid="prune-result" className="space-y-1 text-slate-200">
            <p>
              Removed {done.removed.length} volume{done.removed.length === 1 ? '' : 's'}
              {done.space_bytes === null ? '' : `, freed ${formatBytes(done.space_bytes)}`}.
            </p>
            {done.skipped.map((s) => (
              <p key={s.name} className="text-amber-300">
                Kept {s.name}: {s.reason}
              </p>
            ))}
          </div>
        ) : preview.isPending ? (
          <p className="text-slate-400">Counting unused volumes…</p>
        ) : preview.error !== null ? (
          <p role="alert" className="text-red-400">
            {errorText(preview.error)}
          </p>
        ) : (
          <>
            <p data-testid="prune-preview" className="text-slate-200">
              {count === 0
                ? 'No unused volumes to remove.'
                : `${count} unused volume${count === 1 ? '' : 's'}${space === null ? '' : `, ${formatBytes(space)} freed`}. Their data is deleted.`}
            </p>
            {count > 0 && (
              <ul className="max-h-40 list-disc overflow-y-auto pl-5 text-slate-300">
                {names.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            )}
          </>
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

const TEXTAREA =
  'w-full rounded-md border border-slate-700 bg-slate-900 px-3 py-2 font-mono text-sm text-slate-100';

/** Create a volume: name (or the engine's), driver, labels and driver options. */
export function CreateVolumeDialog({
  hosts,
  hostId: fixedHost,
  onClose,
}: {
  hosts: HostChoice[];
  hostId: string | null;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [hostId, setHostId] = useState(fixedHost ?? hosts[0]?.id ?? '');
  const [name, setName] = useState('');
  const [driver, setDriver] = useState('local');
  const [labels, setLabels] = useState('');
  const [opts, setOpts] = useState('');
  const create = useMutation({
    mutationFn: () =>
      createVolume(hostId, {
        ...(name.trim() === '' ? {} : { name: name.trim() }),
        driver: driver.trim(),
        labels: parseKeyValues(labels),
        driver_opts: parseKeyValues(opts),
      }),
    onSuccess: (made) => {
      toast.success(`Volume ${made.name} created`);
      void client.invalidateQueries({ queryKey: VOLUMES_KEY });
      onClose();
    },
  });
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Create volume">
      <form className="space-y-3 text-sm" onSubmit={submit} data-testid="create-volume">
        {fixedHost === null && <HostPicker hosts={hosts} value={hostId} onChange={setHostId} />}
        <label className="flex flex-col gap-1 text-slate-300">
          Name
          <Input
            aria-label="Name"
            placeholder="Left empty: the engine names it"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label className="flex flex-col gap-1 text-slate-300">
          Driver
          <Input aria-label="Driver" value={driver} onChange={(e) => setDriver(e.target.value)} />
        </label>
        <label className="flex flex-col gap-1 text-slate-300">
          Labels (key=value, one a line)
          <textarea
            aria-label="Labels"
            rows={2}
            className={TEXTAREA}
            value={labels}
            onChange={(e) => setLabels(e.target.value)}
          />
        </label>
        <label className="flex flex-col gap-1 text-slate-300">
          Driver options (key=value, one a line)
          <textarea
            aria-label="Driver options"
            rows={2}
            className={TEXTAREA}
            placeholder={'type=tmpfs\ndevice=tmpfs'}
            value={opts}
            onChange={(e) => setOpts(e.target.value)}
          />
        </label>
        <FormFooter
          error={create.error === null ? null : errorText(create.error)}
          onCancel={onClose}
          submit={create.isPending ? 'Creating…' : 'Create'}
          pending={create.isPending || hostId === ''}
        />
      </form>
    </Dialog>
  );
}
