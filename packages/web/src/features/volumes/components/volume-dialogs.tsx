import type { Volume } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import {
  InspectDialog,
  PruneUnusedDialog,
  RemoveResourceDialog,
} from '@/components/resource-list/resource-dialogs';
import {
  CreateResourceDialog,
  KeyValuesField,
  TextField,
} from '@/components/resource-list/resource-form';
import type { HostDialogProps } from '@/components/resource-list/resource-view';
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

/** A volume's inspect answer, read-only: the engine's JSON whole, after the main fields. */
export function VolumeDetailsDialog({ volume, onClose }: { volume: Volume; onClose: () => void }) {
  const details = useQuery(volumeDetailsQueryOptions(volume.host_id, volume.name));
  return (
    <InspectDialog
      title={volume.name}
      testId="volume-details"
      error={details.error}
      raw={details.data?.raw}
      onClose={onClose}
      fields={
        <>
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
        </>
      }
    />
  );
}

/**
 * Remove a volume. One a container mounts is named with its containers; the engine refuses the
 * plain remove in its words (shown here). Force, a second confirm naming them again, removes the
 * stopped ones first; a running one must be stopped by hand.
 */
export function RemoveVolumeDialog({ volume, onClose }: { volume: Volume; onClose: () => void }) {
  const users = volume.in_use_by;
  const names = users.map((u) => u.name).join(', ');
  return (
    <RemoveResourceDialog
      noun="volume"
      users={users}
      usersTestId="volume-users"
      usersHeading="In use by:"
      describe={(force) =>
        force
          ? `Removes the stopped container${users.length === 1 ? '' : 's'} ${names} and then ${volume.name} with its data. This cannot be undone.`
          : `${volume.name} on ${volume.host_name} and all its data. This cannot be undone.`
      }
      canForce
      remove={(force) => removeVolume(volume.host_id, volume.name, force)}
      onRemoved={(answer) => {
        const also = answer.removed_containers;
        toast.success(
          `Volume ${volume.name} removed${also.length === 0 ? '' : ` with ${also.join(', ')}`}`,
        );
      }}
      queryKey={VOLUMES_KEY}
      onClose={onClose}
    />
  );
}

/**
 * Prune unused volumes: the dry run's names, count and space first; the prune then removes
 * those names only, skipping those a container took meanwhile.
 */
export function PruneVolumesDialog(host: HostDialogProps) {
  return (
    <PruneUnusedDialog
      noun="volume"
      {...host}
      preview={volumePrunePreviewQueryOptions}
      found={(p) => p.names.map((n) => ({ key: n, name: n }))}
      summary={(count, p) =>
        `${count} unused volume${count === 1 ? '' : 's'}${p.space_bytes === null ? '' : `, ${formatBytes(p.space_bytes)} freed`}. Their data is deleted.`
      }
      prune={pruneVolumes}
      freed
      queryKey={VOLUMES_KEY}
    />
  );
}

/** Create a volume: name (or the engine's), driver, labels and driver options. */
export function CreateVolumeDialog({ hosts, hostId, onClose }: HostDialogProps) {
  const [name, setName] = useState('');
  const [driver, setDriver] = useState('local');
  const [labels, setLabels] = useState('');
  const [opts, setOpts] = useState('');
  return (
    <CreateResourceDialog
      noun="Volume"
      testId="create-volume"
      hosts={hosts}
      hostId={hostId}
      build={() => ({
        ...(name.trim() === '' ? {} : { name: name.trim() }),
        driver: driver.trim(),
        labels: parseKeyValues(labels),
        driver_opts: parseKeyValues(opts),
      })}
      create={createVolume}
      queryKey={VOLUMES_KEY}
      onClose={onClose}
    >
      <TextField
        label="Name"
        placeholder="Left empty: the engine names it"
        value={name}
        onValue={setName}
      />
      <TextField label="Driver" value={driver} onValue={setDriver} />
      <KeyValuesField
        label="Labels (key=value, one a line)"
        name="Labels"
        value={labels}
        onChange={setLabels}
      />
      <KeyValuesField
        label="Driver options (key=value, one a line)"
        name="Driver options"
        placeholder={'type=tmpfs\ndevice=tmpfs'}
        value={opts}
        onChange={setOpts}
      />
    </CreateResourceDialog>
  );
}
