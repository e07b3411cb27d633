import { PageHeader } from '@/components/page-header';
import { ContainersView } from './containers-view';

/** /containers (spec 2 §2.1). */
export function ContainersPage() {
  return (
    <>
      <PageHeader title="Containers" subtitle="Manage and monitor Docker containers" />
      <ContainersView />
    </>
  );
}
