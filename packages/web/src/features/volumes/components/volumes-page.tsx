import { PageHeader } from '@/components/page-header';
import { VolumesView } from './volumes-view';

/** /volumes: the fleet's volumes, with a host filter, search, create and prune. */
export function VolumesPage() {
  return (
    <div data-testid="volumes-page">
      <PageHeader title="Volumes" subtitle="Volumes on every host, and the containers using them" />
      <VolumesView />
    </div>
  );
}
