import { NetworksView } from './networks-view';

/** One host's networks, for the host modal's Networks tab. */
export function HostNetworksTab({ hostId }: { hostId: string }) {
  return (
    <div data-testid="host-networks" data-host-id={hostId}>
      <NetworksView hostId={hostId} />
    </div>
  );
}
