import { BellRing } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function AlertsPage() {
  return (
    <>
      <PageHeader title="Alerts" subtitle="Open, snoozed and resolved alerts" />
      <EmptyState icon={BellRing} title="No alerts found">
        Try adjusting your filters
      </EmptyState>
    </>
  );
}
