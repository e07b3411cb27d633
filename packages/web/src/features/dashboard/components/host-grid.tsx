import type { GridItem, Host } from '@berth/contracts';
import { startTransition, useEffect, useMemo, useState } from 'react';
import { usePhone } from '@/hooks/use-breakpoint';
import {
  CARD_ROW_HEIGHT,
  cardsInWindow,
  gridHeightPx,
  hostLayoutFor,
  readingOrder,
  type CardLayoutItem,
  type CardMode,
} from '../lib/host-layouts';
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
  const phone = usePhone();
  if (phone) return <PhoneHostCards hosts={hosts} mode={mode} layout={layout} />;
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

/** A card not drawn yet: an empty frame of its size. */
const frame = (
  <div
    data-testid="host-frame"
    aria-busy="true"
    className="h-full rounded-xl border border-slate-800 bg-slate-900/70"
  />
);

/**
 * A phone's host cards: one per row, full width, in the saved grid's reading order, without
 * dragging or resizing (nothing here saves a layout). A standard card is as tall as its top
 * three containers need; an expanded one keeps its grid height, its container list scrolling.
 * As in the grid, the first screen's cards are drawn first and the rest in a transition.
 */
function PhoneHostCards({
  hosts,
  mode,
  layout,
}: {
  hosts: Host[];
  mode: CardMode;
  layout: CardLayoutItem[];
}) {
  const byId = new Map(hosts.map((h) => [h.id, h]));
  const [allDrawn, setAllDrawn] = useState(false);
  useEffect(() => startTransition(() => setAllDrawn(true)), []);
  const firstScreen = Math.ceil(window.innerHeight / gridHeightPx(8, CARD_ROW_HEIGHT)) + 1;
  return (
    <div data-testid={`host-grid-${mode}`} className="flex flex-col gap-3">
      {readingOrder(layout).map((item, index) => {
        const host = byId.get(item.i);
        if (host === undefined) return null;
        const height = gridHeightPx(item.h, CARD_ROW_HEIGHT);
        const drawn = allDrawn || index < firstScreen;
        return (
          <div
            key={host.id}
            style={mode === 'expanded' || !drawn ? { height } : undefined}
            data-testid="phone-host-card"
          >
            {drawn ? <HostCard host={host} mode={mode} /> : frame}
          </div>
        );
      })}
    </div>
  );
}
