import type { GridItem } from '@berth/contracts';
import { GripHorizontal } from 'lucide-react';
import { useMemo, type ComponentType } from 'react';
import { usePhone } from '@/hooks/use-breakpoint';
import { usePreferences, useUpdatePreferences } from '@/lib/preferences';
import { gridHeightPx, readingOrder } from '../../lib/host-layouts';
import { widgetsFor, type WidgetType } from '../../lib/widget-layout';
import {
  AlertSummaryWidget,
  ContainerStatsWidget,
  HostStatsWidget,
  RecentEventsWidget,
  UpdatesWidget,
} from './widget-bodies';
import { DashboardGrid } from '../dashboard-grid';

const BODIES: Record<WidgetType, ComponentType> = {
  'host-stats': HostStatsWidget,
  'container-stats': ContainerStatsWidget,
  updates: UpdatesWidget,
  'recent-events': RecentEventsWidget,
  'alert-summary': AlertSummaryWidget,
};

const WIDGET_ROW_HEIGHT = 120;

/** The stats widgets in a 12-column grid; the layout saves 1 s after the last change. */
export function StatsWidgets() {
  const saved = usePreferences().data?.dashboard_layout_v2?.widgets;
  const update = useUpdatePreferences();
  const widgets = useMemo(() => widgetsFor(saved), [saved]);
  const phone = usePhone();
  const layout = widgets.map(({ id, x, y, w, h, minW, minH }) => ({
    i: id,
    x,
    y,
    w,
    h,
    minW: minW ?? w,
    minH: minH ?? h,
  }));
  const save = (places: GridItem[]) =>
    update.mutate({
      dashboard_layout_v2: {
        widgets: widgets.map((widget) => {
          const place = places.find((p) => p.i === widget.id);
          return place === undefined
            ? widget
            : { ...widget, x: place.x, y: place.y, w: place.w, h: place.h };
        }),
      },
    });

  // A phone stacks the widgets full width in the saved reading order, without drag or resize,
  // each as tall as its content up to its height in the grid.
  if (phone)
    return (
      <section aria-label="Stats widgets" className="mb-6 flex flex-col gap-3">
        {readingOrder(widgets).map((widget) => (
          <div
            key={widget.id}
            data-testid={`widget-${widget.id}`}
            style={{ maxHeight: gridHeightPx(widget.h, WIDGET_ROW_HEIGHT) }}
            className="flex flex-col overflow-hidden rounded-xl border border-slate-800 bg-slate-900/60"
          >
            <WidgetBody type={widget.type as WidgetType} title={widget.title} />
          </div>
        ))}
      </section>
    );
  return (
    <section aria-label="Stats widgets" className="mb-6">
      <DashboardGrid
        layout={layout}
        rowHeight={WIDGET_ROW_HEIGHT}
        handle=".widget-drag-handle"
        onSave={save}
      >
        {widgets.map((widget) => (
          <div
            key={widget.id}
            data-testid={`widget-${widget.id}`}
            className="flex flex-col overflow-hidden rounded-xl border border-slate-800 bg-slate-900/60"
          >
            <WidgetBody type={widget.type as WidgetType} title={widget.title} draggable />
          </div>
        ))}
      </DashboardGrid>
    </section>
  );
}

/** A widget's title bar (its drag handle in the grid) and its body. */
function WidgetBody({
  type,
  title,
  draggable = false,
}: {
  type: WidgetType;
  title: string;
  draggable?: boolean;
}) {
  const Body = BODIES[type];
  return (
    <>
      <div
        className={
          draggable
            ? 'widget-drag-handle flex cursor-move items-center justify-between border-b border-slate-800 px-3 py-1.5'
            : 'flex items-center justify-between border-b border-slate-800 px-3 py-1.5'
        }
      >
        <h2 className="text-xs font-medium tracking-wide text-slate-400 uppercase">{title}</h2>
        {draggable && (
          <GripHorizontal className="h-4 w-4 text-slate-600" aria-label={`Drag ${title}`} />
        )}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-3 py-2">
        <Body />
      </div>
    </>
  );
}
