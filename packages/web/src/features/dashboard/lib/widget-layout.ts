import type { DashboardWidget } from '@berth/contracts';

export type WidgetType =
  'host-stats' | 'container-stats' | 'updates' | 'recent-events' | 'alert-summary';

/** The five widgets with their default place and size (also their minimum). */
export const DEFAULT_WIDGETS: DashboardWidget[] = [
  { id: 'host-stats', type: 'host-stats', title: 'Hosts', x: 0, y: 0, w: 2, h: 2 },
  { id: 'container-stats', type: 'container-stats', title: 'Containers', x: 2, y: 0, w: 2, h: 2 },
  { id: 'updates', type: 'updates', title: 'Updates', x: 4, y: 0, w: 2, h: 2 },
  { id: 'recent-events', type: 'recent-events', title: 'Recent Events', x: 6, y: 0, w: 3, h: 2 },
  { id: 'alert-summary', type: 'alert-summary', title: 'Active Alerts', x: 9, y: 0, w: 3, h: 2 },
].map((w) => ({ ...w, minW: w.w, minH: w.h }));

/** The saved widgets when they are the known five, else the defaults. */
export function widgetsFor(saved: readonly DashboardWidget[] | undefined): DashboardWidget[] {
  if (saved === undefined) return DEFAULT_WIDGETS;
  const known = new Map(DEFAULT_WIDGETS.map((w) => [w.id, w]));
  const usable = saved.filter((w) => known.has(w.id));
  if (usable.length !== DEFAULT_WIDGETS.length) return DEFAULT_WIDGETS;
  return usable.map((w) => {
    const base = known.get(w.id) ?? w;
    return { ...base, x: w.x, y: w.y, w: Math.max(w.w, base.w), h: Math.max(w.h, base.h) };
  });
}
