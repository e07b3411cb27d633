import type { GridItem, Host } from '@berth/contracts';
import { useMemo } from 'react';
import { CARD_ROW_HEIGHT, hostLayoutFor, type CardMode } from '../lib/host-layouts';
import { DashboardGrid } from './dashboard-grid';
import { HostCard } from './host-card';

/** Host cards in the dashboard grid (row height 36), laid out per mode. */
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
  return (
    <div data-testid={`host-grid-${mode}`}>
      <DashboardGrid
        layout={layout}
        rowHeight={CARD_ROW_HEIGHT}
        handle=".host-drag-handle"
        onSave={onSave}
      >
        {hosts.map((host) => (
          <div key={host.id}>
            <HostCard host={host} mode={mode} />
          </div>
        ))}
      </DashboardGrid>
    </div>
  );
}
