/** One host's images, for the host modal's Images tab. (Being built: issue 53.) */
export function HostImagesTab({ hostId }: { hostId: string }) {
  return <div data-testid="host-images" data-host-id={hostId} />;
}
