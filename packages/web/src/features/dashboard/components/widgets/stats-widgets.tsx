import type { DashboardWidget } from '@berth/contracts';
import { GripHorizontal } from 'lucide-react';
import { useMemo, type ComponentType } from 'react';
import ReactGridLayout, { type Layout } from 'react-grid-layout';
import { useDebouncedCallback } from '@/hooks/use-debounced-callback';
import { useElementWidth } from '@/hooks/use-element-width';
import { usePreferences, useUpdatePreferences } from '@/lib/preferences';
import { GRID_COLUMNS } from '../../lib/host-layouts';
import { widgetsFor, type WidgetType } from '../../lib/widget-layout';
import {
  AlertSummaryWidget,
  ContainerStatsWidget,
  HostStatsWidget,
  RecentEventsWidget,
  UpdatesWidget,
} from './widget-bodies';

const BODIES: Record<WidgetType, ComponentType> = {
  'host-stats': HostStatsWidget,
  'container-stats': ContainerStatsWidget,
  updates: UpdatesWidget,
  'recent-events': RecentEventsWidget,
  'alert-summary': AlertSummaryWidget,
};

const WIDGET_ROW_HEIGHT = 120;
const LAYOUT_SAVE_DELAY_MS = 1000;

/** The stats widgets in a 12-column grid; the layout saves 1 s after the last change. */
export function StatsWidgets() {
  const saved = usePreferences().data?.dashboard_layout_v2?.widgets;
  const update = useUpdatePreferences();
  const widgets = useMemo(() => widgetsFor(saved), [saved]);
  const { ref: containerRef, width } = useElementWidth();
  const save = useDebouncedCallback((next: DashboardWidget[]) => {
    update.mutate({ dashboard_layout_v2: { widgets: next } });
  }, LAYOUT_SAVE_DELAY_MS);

  const layout = widgets.map(({ id, x, y, w, h, minW, minH }) => ({
    i: id,
    x,
    y,
    w,
    h,
    minW: minW ?? w,
    minH: minH ?? h,
  }));
  const onChange = (next: Layout) => {
    const moved = widgets.map((widget) => {
      const item = next.find((l) => l.i === widget.id);
      return item === undefined
        ? widget
        : { ...widget, x: item.x, y: item.y, w: item.w, h: item.h };
    });
    const same = moved.every((m, i) => {
      const w = widgets[i];
      return w !== undefined && m.x === w.x && m.y === w.y && m.w === w.w && m.h === w.h;
    });
    if (!same) save(moved);
  };

  return (
    <section aria-label="Stats widgets" ref={containerRef} className="mb-6">
      {width !== null && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{
            cols: GRID_COLUMNS,
            rowHeight: WIDGET_ROW_HEIGHT,
            margin: [12, 12],
            containerPadding: [0, 0],
          }}
          dragConfig={{ handle: '.widget-drag-handle' }}
          onLayoutChange={onChange}
        >
          {widgets.map((widget) => {
            const Body = BODIES[widget.type as WidgetType];
            return (
              <div
                key={widget.id}
                data-testid={`widget-${widget.id}`}
                className="flex flex-col overflow-hidden rounded-xl border border-slate-800 bg-slate-900/60"
              >
                <div className="widget-drag-handle flex cursor-move items-center justify-between border-b border-slate-800 px-3 py-1.5">
                  <h2 className="text-xs font-medium tracking-wide text-slate-400 uppercase">
                    {widget.title}
                  </h2>
                  <GripHorizontal
                    className="h-4 w-4 text-slate-600"
                    aria-label={`Drag ${widget.title}`}
                  />
                </div>
                <div className="min-h-0 flex-1 overflow-y-auto px-3 py-2">
                  <Body />
                </div>
              </div>
            );
          })}
        </ReactGridLayout>
      )}
    </section>
  );
}
