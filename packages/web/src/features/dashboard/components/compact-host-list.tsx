import type { Host } from '@berth/contracts';
import { memo } from 'react';
import { StatusDot, TagChips } from '@/components/host-status';
import { SortableList } from '@/components/sortable-list';
import { formatPercent } from '@/lib/format';
import { useHostPanels } from '@/lib/host-panels';
import { useHostContainers } from '../api/dashboard-api';

const CompactRow = memo(function CompactRow({
  host,
  handle,
}: {
  host: Host;
  handle: React.ReactNode;
}) {
  const panels = useHostPanels();
  const containers = useHostContainers(host.id);
  const running = containers.filter((c) => c.state === 'running').length;
  return (
    <div
      data-testid={`host-row-${host.name}`}
      data-status={host.status}
      onClick={(e) => {
        if (e.currentTarget.contains(e.target as Node)) panels.openHost(host.id);
      }}
      className="mb-1.5 flex cursor-pointer items-center gap-3 rounded-lg border border-slate-800 bg-slate-900/70 px-3 py-2 text-sm hover:border-slate-700"
    >
      <span onClick={(e) => e.stopPropagation()}>{handle}</span>
      <StatusDot status={host.status} />
      <span className="w-48 truncate font-medium text-white">{host.name}</span>
      <div className="w-48">
        <TagChips tags={host.tags} max={2} />
      </div>
      <span className="w-28 text-slate-400 tabular-nums">
        {running}/{containers.length} running
      </span>
      <span className="w-24 text-slate-400 tabular-nums">
        CPU {formatPercent(host.stats?.cpu_percent)}
      </span>
      <span className="w-24 text-slate-400 tabular-nums">
        Mem {formatPercent(host.stats?.mem_percent)}
      </span>
    </div>
  );
});

/** Compact mode: one row per host, reorderable by drag (order saved). */
export function CompactHostList({
  hosts,
  onReorder,
}: {
  hosts: Host[];
  onReorder: (ids: string[]) => void;
}) {
  return (
    <div data-testid="compact-list">
      <SortableList items={hosts} idOf={(h) => h.id} labelOf={(h) => h.name} onReorder={onReorder}>
        {(host, handle) => <CompactRow host={host} handle={handle} />}
      </SortableList>
    </div>
  );
}
