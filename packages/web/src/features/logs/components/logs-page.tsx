import { ScrollText } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function LogsPage() {
  return (
    <>
      <PageHeader
        title="Container Logs"
        subtitle="Follow the logs of up to 15 containers at once"
      />
      <EmptyState icon={ScrollText} title="No containers selected">
        Select containers to see their logs.
      </EmptyState>
    </>
  );
}
