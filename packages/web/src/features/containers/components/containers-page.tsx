import { PageHeader } from '@/components/page-header';
import { ContainersView } from './containers-view';

/** /containers: the containers table with its filters, bulk actions and panels. */
export function ContainersPage() {
  return (
    <>
      <PageHeader title="Containers" subtitle="Manage and monitor Docker containers" />
      <ContainersView />
    </>
  );
}
