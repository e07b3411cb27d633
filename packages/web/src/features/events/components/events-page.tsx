import { History } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function EventsPage() {
  return (
    <>
      <PageHeader title="Events" subtitle="What happened on your hosts and containers" />
      <EmptyState icon={History} title="No events found">
        Engine events, actions and alerts are logged here.
      </EmptyState>
    </>
  );
}
