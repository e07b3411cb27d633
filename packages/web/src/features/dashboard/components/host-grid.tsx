import type { GridItem, Host } from '@berth/contracts';
import { startTransition, useMemo, useState } from 'react';
import { CARD_ROW_HEIGHT, GRID_MARGIN, hostLayoutFor, type CardMode } from '../lib/host-layouts';
import { DashboardGrid } from './dashboard-grid';
import { HostCard } from './host-card';

/** Cards starting this far below the window's height wait for the first screen to be drawn. */
const FIRST_SCREEN_MARGIN_PX = 200;

/**
 * Host cards in the dashboard grid (row height 36), laid out per mode. The cards that start
 * within the first screen are drawn at once; the others follow in a transition that yields to
 * the browser, so the first screen does not wait for fifty cards (bench/dashboard), and the
 * ones below are complete a moment later. Until then each is an empty frame of its size.
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
  const [allDrawn, setAllDrawn] = useState(false);
  const firstScreen = useMemo(() => {
    const bottom = window.innerHeight + FIRST_SCREEN_MARGIN_PX;
    return new Set(
      layout.filter((item) => item.y * (CARD_ROW_HEIGHT + GRID_MARGIN) < bottom).map((i) => i.i),
    );
  }, [layout]);
  return (
    <div data-testid={`host-grid-${mode}`}>
      <DashboardGrid
        layout={layout}
        rowHeight={CARD_ROW_HEIGHT}
        handle=".host-drag-handle"
        onSave={onSave}
        onDrawn={() => startTransition(() => setAllDrawn(true))}
      >
        {hosts.map((host) => (
          <div key={host.id}>
            {allDrawn || firstScreen.has(host.id) ? (
              <HostCard host={host} mode={mode} />
            ) : (
              <div
                data-testid="host-frame"
                aria-busy="true"
                className="h-full rounded-xl border border-slate-800 bg-slate-900/70"
              />
            )}
          </div>
        ))}
      </DashboardGrid>
    </div>
  );
}
