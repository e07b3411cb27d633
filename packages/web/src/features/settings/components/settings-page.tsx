import { Settings } from 'lucide-react';
import { Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { TabPanel, Tabs, TabsList } from '@/components/ui/tabs';
import { useCan } from '@/hooks/use-can';
import {
  DEFAULT_SETTINGS_TAB,
  isSettingsTab,
  SETTINGS_TABS,
  TAB_SCREENS,
  type SettingsTabId,
} from '../tabs';

function TabLoading() {
  return (
    <div className="space-y-3" aria-busy="true" aria-label="Loading">
      <Skeleton className="h-16 w-full max-w-3xl" />
      <Skeleton className="h-16 w-full max-w-3xl" />
      <Skeleton className="h-16 w-full max-w-3xl" />
    </div>
  );
}

/** /settings: the five settings tabs; the tab is in the URL (`?tab=system`). */
export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  // Only the tabs the user's role can use: the others would only answer "cannot do this".
  const admin = useCan('admin');
  const tabs = SETTINGS_TABS.filter((t) => admin || t.permission !== 'admin');
  const asked = params.get('tab');
  const tab: SettingsTabId =
    isSettingsTab(asked) && tabs.some((t) => t.id === asked) ? asked : DEFAULT_SETTINGS_TAB;
  const select = (next: string) =>
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        out.set('tab', next);
        return out;
      },
      { replace: true },
    );

  return (
    <>
      <PageHeader
        title="Settings"
        subtitle="Dashboard, alerts, notifications, updates and system settings"
      />
      <Tabs value={tab} onValueChange={select}>
        <TabsList tabs={tabs.map(({ id, label }) => ({ value: id, label }))} />
        {tabs.map(({ id, label, empty }) => {
          const Screen = TAB_SCREENS[id];
          return (
            <TabPanel key={id} value={id}>
              {Screen === null ? (
                <EmptyState icon={Settings} title={label}>
                  {empty}
                </EmptyState>
              ) : (
                <Suspense fallback={<TabLoading />}>
                  <Screen />
                </Suspense>
              )}
            </TabPanel>
          );
        })}
      </Tabs>
    </>
  );
}
