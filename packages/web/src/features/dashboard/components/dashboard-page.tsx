import { Server } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" />
      <EmptyState icon={Server} title="No hosts configured. Add a host to get started.">
        Hosts you add appear here with their containers and live metrics.
      </EmptyState>
    </>
  );
}
