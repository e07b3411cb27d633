import type { GridItem, Host } from '@berth/contracts';
import { startTransition, useMemo, useState } from 'react';
import { CARD_ROW_HEIGHT, cardsInWindow, hostLayoutFor, type CardMode } from '../lib/host-layouts';
import { DashboardGrid } from './dashboard-grid';
import { HostCard } from './host-card';

/**
 * Host cards in the dashboard grid (row height 36), laid out per mode. The cards that start
 * within the first screen are drawn at once; the others follow in a transition that yields to
 * the browser, so the first screen does not wait for fifty cards (bench/dashboard), and the
 * ones below are complete a moment later. Until then each is an empty frame of its size.
 * The first screen is told from where the grid starts in the window, measured with its width.
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
  return (
    <div data-testid={`host-grid-${mode}`}>
      <DashboardGrid
        layout={layout}
        rowHeight={CARD_ROW_HEIGHT}
        handle=".host-drag-handle"
        onSave={onSave}
        onDrawn={() => startTransition(() => setAllDrawn(true))}
      >
        {(top) => {
          const onScreen = allDrawn ? null : cardsInWindow(layout, window.innerHeight, top);
          return hosts.map((host) => (
            <div key={host.id}>
              {onScreen === null || onScreen.has(host.id) ? (
                <HostCard host={host} mode={mode} />
              ) : (
                <div
                  data-testid="host-frame"
                  aria-busy="true"
                  className="h-full rounded-xl border border-slate-800 bg-slate-900/70"
                />
              )}
            </div>
          ));
        }}
      </DashboardGrid>
    </div>
  );
}
