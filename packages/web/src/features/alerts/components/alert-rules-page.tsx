import { ListChecks } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function AlertRulesPage() {
  return (
    <>
      <PageHeader
        title="Alert Rules"
        subtitle="Conditions that raise alerts and notify your channels"
      />
      <EmptyState icon={ListChecks} title="No alert rules configured">
        Rules you create appear here.
      </EmptyState>
    </>
  );
}
