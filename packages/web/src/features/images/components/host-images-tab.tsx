import { ImagesView } from './images-view';

/** One host's images, for the host modal's Images tab. */
export function HostImagesTab({ hostId }: { hostId: string }) {
  return (
    <div data-testid="host-images" data-host-id={hostId}>
      <ImagesView hostId={hostId} />
    </div>
  );
}
