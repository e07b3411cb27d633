/** One host's networks, for the host modal's Networks tab. (Being built: issue 53.) */
export function HostNetworksTab({ hostId }: { hostId: string }) {
  return <div data-testid="host-networks" data-host-id={hostId} />;
}
