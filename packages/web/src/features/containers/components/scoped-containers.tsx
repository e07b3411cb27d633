import { ContainersView } from './containers-view';

/** The containers table forced to one host, for the host modal. */
export function ScopedContainers({ hostId }: { hostId: string }) {
  return <ContainersView scopedHostId={hostId} />;
}
