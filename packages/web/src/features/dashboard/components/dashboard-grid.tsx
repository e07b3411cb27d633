import type { GridItem } from '@berth/contracts';
import { useEffect, type ReactNode } from 'react';
import ReactGridLayout, { type Layout, type LayoutItem } from 'react-grid-layout';
import { useDebouncedCallback } from '@/hooks/use-debounced-callback';
import { useElementWidth } from '@/hooks/use-element-width';
import { GRID_COLUMNS, GRID_MARGIN, toGridItems } from '../lib/host-layouts';

/** Layouts save 1 s after the last change. */
const LAYOUT_SAVE_DELAY_MS = 1000;

const samePlaces = (a: readonly GridItem[], b: readonly GridItem[]) =>
  a.length === b.length &&
  a.every((item, i) => {
    const o = b[i];
    return o?.i === item.i && o.x === item.x && o.y === item.y && o.w === item.w && o.h === item.h;
  });

/**
 * The dashboard's 12-column draggable, resizable grid (widgets and host cards). `onSave`
 * gets the places in `layout` order, 1 s after the user's last change, never for the
 * layout the grid starts with.
 */
export function DashboardGrid({
  layout,
  rowHeight,
  handle,
  onSave,
  onDrawn,
  children,
}: {
  layout: LayoutItem[];
  rowHeight: number;
  /** CSS selector of the drag handle inside each item. */
  handle: string;
  onSave: (places: GridItem[]) => void;
  /** Called once the grid has drawn its items the first time (it waits for its width). */
  onDrawn?: () => void;
  /** The items; as a function, given where the grid's top was in the window when measured. */
  children: ReactNode | ((top: number) => ReactNode);
}) {
  const { ref, width, top } = useElementWidth();
  const measured = width !== null;
  useEffect(() => {
    if (measured) onDrawn?.();
  }, [measured]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when it is drawn
  const save = useDebouncedCallback(onSave, LAYOUT_SAVE_DELAY_MS);
  const onChange = (next: Layout) => {
    const moved = toGridItems(next);
    const ordered = layout.map((item) => moved.find((m) => m.i === item.i) ?? item);
    if (!samePlaces(toGridItems(ordered), toGridItems(layout))) save(toGridItems(ordered));
  };
  return (
    <div ref={ref}>
      {width !== null && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{
            cols: GRID_COLUMNS,
            rowHeight,
            margin: [GRID_MARGIN, GRID_MARGIN],
            containerPadding: [0, 0],
          }}
          dragConfig={{ handle }}
          onLayoutChange={onChange}
        >
          {typeof children === 'function' ? children(top ?? 0) : children}
        </ReactGridLayout>
      )}
    </div>
  );
}
