import { VolumesView } from './volumes-view';

/** One host's volumes, for the host modal's Volumes tab. */
export function HostVolumesTab({ hostId }: { hostId: string }) {
  return (
    <div data-testid="host-volumes" data-host-id={hostId}>
      <VolumesView hostId={hostId} />
    </div>
  );
}
