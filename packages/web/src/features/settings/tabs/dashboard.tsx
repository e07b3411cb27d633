import type { DashboardPreferences, PreferencesPatch } from '@berth/contracts';
import { toast } from 'sonner';
import { Switch } from '@/components/ui/switch';
import { usePreferences, useUpdatePreferences } from '@/lib/preferences';
import { SettingRow, SettingsSection } from '../components/setting-row';

type DashboardKey = 'showKpiBar' | 'showStatsWidgets' | 'optimizedLoading';

/** The defaults: KPI bar on, stats widgets off, optimized loading on. */
const DASHBOARD_DEFAULTS: Record<DashboardKey, boolean> = {
  showKpiBar: true,
  showStatsWidgets: false,
  optimizedLoading: true,
};

const SWITCHES: {
  id: string;
  label: string;
  description: string;
  read: (p: { dashboard: DashboardPreferences; simplified_workflow: boolean }) => boolean;
  patch: (on: boolean) => PreferencesPatch;
}[] = [
  {
    id: 'kpi',
    label: 'Show KPI bar',
    description: 'Host, container, alert and update counts above the host cards.',
    read: (p) => p.dashboard.showKpiBar ?? DASHBOARD_DEFAULTS.showKpiBar,
    patch: (on) => ({ dashboard: { showKpiBar: on } }),
  },
  {
    id: 'widgets',
    label: 'Show stats widgets',
    description: 'Movable widgets with fleet totals and recent events.',
    read: (p) => p.dashboard.showStatsWidgets ?? DASHBOARD_DEFAULTS.showStatsWidgets,
    patch: (on) => ({ dashboard: { showStatsWidgets: on } }),
  },
  {
    id: 'simplified',
    label: 'Simplified workflow',
    description: 'Clicking a host or container opens its full details instead of a side drawer.',
    read: (p) => p.simplified_workflow,
    patch: (on) => ({ simplified_workflow: on }),
  },
  {
    id: 'optimized',
    label: 'Optimized dashboard loading',
    description: 'Pauses sparkline updates for host cards that are off screen.',
    read: (p) => p.dashboard.optimizedLoading ?? DASHBOARD_DEFAULTS.optimizedLoading,
    patch: (on) => ({ dashboard: { optimizedLoading: on } }),
  },
];

/** The Dashboard tab: display preferences, saved on change and applied at once. */
export default function DashboardSettingsTab() {
  const prefs = usePreferences().data;
  const update = useUpdatePreferences();
  if (prefs === undefined) return <p className="text-sm text-slate-400">Loading…</p>;
  return (
    <SettingsSection title="Dashboard">
      {SWITCHES.map((s) => (
        <SettingRow key={s.id} label={s.label} description={s.description}>
          <Switch
            label={s.label}
            checked={s.read(prefs)}
            onCheckedChange={(on) =>
              update.mutate(s.patch(on), {
                // The preference hook restores the previous value; the user is told here.
                onError: () => toast.error(`Failed to update ${s.label.toLowerCase()}`),
              })
            }
          >
            <span className="sr-only">{s.label}</span>
          </Switch>
        </SettingRow>
      ))}
    </SettingsSection>
  );
}
