import { PageHeader } from '@/components/page-header';
import { ImagesView } from './images-view';

/** /images: the fleet's images, with a host filter, search, pull and prune. */
export function ImagesPage() {
  return (
    <div data-testid="images-page">
      <PageHeader title="Images" subtitle="Images on every host, and what uses them" />
      <ImagesView />
    </div>
  );
}
