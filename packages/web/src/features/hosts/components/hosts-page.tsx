import { Server } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function HostsPage() {
  return (
    <>
      <PageHeader title="Hosts" subtitle="Manage your Docker hosts and connections" />
      <EmptyState icon={Server} title="No hosts configured">
        Add your first Docker host to get started
      </EmptyState>
    </>
  );
}
