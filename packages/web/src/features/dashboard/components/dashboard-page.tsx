import { Server } from 'lucide-react';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import './resize-handle.css';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { usePreferences, useUpdatePreferences } from '@/lib/preferences';
import { useAllContainers, useDashboardHosts, useSetViewMode } from '../api/dashboard-api';
import { DashboardControls } from './dashboard-controls';
import { HostArea } from './host-area';
import { KpiBar } from './kpi-bar';
import { StatsWidgets } from './widgets/stats-widgets';

/**
 * The dashboard; from 768 px up at least 900 px wide, scrolling sideways below that. A phone
 * gets one column of its own instead (KPI tiles two per row, host cards full width).
 */
export function DashboardPage() {
  const prefs = usePreferences().data;
  const hosts = useDashboardHosts();
  const containers = useAllContainers().data ?? [];
  const updatePrefs = useUpdatePreferences();
  const setViewMode = useSetViewMode();

  return (
    <div className="md:min-w-[900px]">
      <PageHeader
        title="Dashboard"
        actions={
          prefs && (
            <DashboardControls
              groupBy={prefs.group_by}
              viewMode={prefs.view_mode}
              onGroupBy={(group_by) => updatePrefs.mutate({ group_by })}
              onViewMode={(mode) => setViewMode.mutate(mode)}
            />
          )
        }
      />
      {prefs?.dashboard.showKpiBar !== false && (
        <KpiBar hosts={hosts.data ?? []} containers={containers} />
      )}
      {prefs?.dashboard.showStatsWidgets === true && <StatsWidgets />}
      {(prefs === undefined || hosts.isPending) && (
        <div className="grid grid-cols-4 gap-3 max-md:grid-cols-1" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-64" />
          ))}
        </div>
      )}
      {hosts.isError && (
        <p className="text-sm text-red-300">Error loading hosts: {hosts.error?.message}</p>
      )}
      {hosts.data?.length === 0 && (
        <EmptyState icon={Server} title="No hosts configured. Add a host to get started." />
      )}
      {prefs !== undefined && hosts.data !== undefined && hosts.data.length > 0 && (
        <HostArea hosts={hosts.data} prefs={prefs} />
      )}
    </div>
  );
}
