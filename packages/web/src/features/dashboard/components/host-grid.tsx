import type { GridItem, Host } from '@berth/contracts';
import { useMemo } from 'react';
import ReactGridLayout, { type Layout } from 'react-grid-layout';
import { useDebouncedCallback } from '@/hooks/use-debounced-callback';
import { useElementWidth } from '@/hooks/use-element-width';
import {
  CARD_ROW_HEIGHT,
  GRID_COLUMNS,
  hostLayoutFor,
  toGridItems,
  type CardMode,
} from '../lib/host-layouts';
import { HostCard } from './host-card';

const LAYOUT_SAVE_DELAY_MS = 1000;

const sameLayout = (a: readonly GridItem[], b: readonly GridItem[]) =>
  a.length === b.length &&
  a.every((item, i) => {
    const o = b[i];
    return (
      o !== undefined &&
      o.i === item.i &&
      o.x === item.x &&
      o.y === item.y &&
      o.w === item.w &&
      o.h === item.h
    );
  });

/**
 * Host cards in a draggable, resizable grid (row height 36). `onSave` is called 1 s after
 * the last user change, never for the layout the grid starts with.
 */
export function HostGrid({
  hosts,
  mode,
  saved,
  onSave,
}: {
  hosts: Host[];
  mode: CardMode;
  saved: GridItem[] | undefined;
  onSave: (layout: GridItem[]) => void;
}) {
  const ids = hosts.map((h) => h.id).join(',');
  const layout = useMemo(
    () => hostLayoutFor(saved, ids === '' ? [] : ids.split(','), mode),
    [saved, ids, mode],
  );
  const { ref: containerRef, width } = useElementWidth();
  const save = useDebouncedCallback(onSave, LAYOUT_SAVE_DELAY_MS);
  const onChange = (next: Layout) => {
    const items = toGridItems(next);
    const ordered = layout.map((l) => items.find((n) => n.i === l.i) ?? l);
    if (!sameLayout(ordered, toGridItems(layout))) save(ordered);
  };
  return (
    <div ref={containerRef} data-testid={`host-grid-${mode}`}>
      {width !== null && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{
            cols: GRID_COLUMNS,
            rowHeight: CARD_ROW_HEIGHT,
            margin: [12, 12],
            containerPadding: [0, 0],
          }}
          dragConfig={{ handle: '.host-drag-handle' }}
          onLayoutChange={onChange}
        >
          {hosts.map((host) => (
            <div key={host.id}>
              <HostCard host={host} mode={mode} />
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}
