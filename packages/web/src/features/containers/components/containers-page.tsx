import { Boxes } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function ContainersPage() {
  return (
    <>
      <PageHeader title="Containers" subtitle="Every container on every host" />
      <EmptyState icon={Boxes} title="No containers found">
        Containers of your hosts appear here once a host is connected.
      </EmptyState>
    </>
  );
}
