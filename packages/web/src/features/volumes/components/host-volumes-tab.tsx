/** One host's volumes, for the host modal's Volumes tab. (Being built: issue 53.) */
export function HostVolumesTab({ hostId }: { hostId: string }) {
  return <div data-testid="host-volumes" data-host-id={hostId} />;
}
