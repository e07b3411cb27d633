import { Settings } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function SettingsPage() {
  return (
    <>
      <PageHeader
        title="Settings"
        subtitle="Dashboard, alerts, notifications, updates and system settings"
      />
      <EmptyState icon={Settings} title="Settings">
        The settings screen arrives with its issue.
      </EmptyState>
    </>
  );
}
