import type { Host } from '@berth/contracts';
import { memo } from 'react';
import { StatusDot, TagChips } from '@/components/host-status';
import { SortableList } from '@/components/sortable-list';
import { usePhone } from '@/hooks/use-breakpoint';
import { formatPercent } from '@/lib/format';
import { useHostPanels } from '@/lib/host-panels';
import { useHostContainers } from '../api/dashboard-api';

const CompactRow = memo(function CompactRow({
  host,
  handle,
}: {
  host: Host;
  /** The drag handle; none on a phone, where the list does not reorder. */
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
      className="mb-1.5 flex cursor-pointer items-center gap-3 rounded-lg border border-slate-800 bg-slate-900/70 px-3 py-2 text-sm hover:border-slate-700 max-md:min-h-11 max-md:flex-wrap max-md:gap-y-1"
    >
      {handle !== null && <span onClick={(e) => e.stopPropagation()}>{handle}</span>}
      <StatusDot status={host.status} />
      <span className="w-48 truncate font-medium text-white max-md:w-auto max-md:min-w-0 max-md:flex-1">
        {host.name}
      </span>
      <div className="w-48 max-md:hidden">
        <TagChips tags={host.tags} max={2} />
      </div>
      {/* The figures: beside the name from 768 px up, on a line of their own on a phone. */}
      <div className="contents max-md:flex max-md:w-full max-md:gap-3 max-md:pl-5 max-md:text-xs">
        <span className="w-28 text-slate-400 tabular-nums max-md:w-auto">
          {running}/{containers.length} running
        </span>
        <span className="w-24 text-slate-400 tabular-nums max-md:w-auto">
          CPU {formatPercent(host.stats?.cpu_percent)}
        </span>
        <span className="w-24 text-slate-400 tabular-nums max-md:w-auto">
          Mem {formatPercent(host.stats?.mem_percent)}
        </span>
      </div>
    </div>
  );
});

/** Compact mode: one row per host, reorderable by drag (order saved), but not on a phone. */
export function CompactHostList({
  hosts,
  onReorder,
}: {
  hosts: Host[];
  onReorder: (ids: string[]) => void;
}) {
  const phone = usePhone();
  if (phone)
    return (
      <div data-testid="compact-list">
        {hosts.map((host) => (
          <CompactRow key={host.id} host={host} handle={null} />
        ))}
      </div>
    );
  return (
    <div data-testid="compact-list">
      <SortableList items={hosts} idOf={(h) => h.id} labelOf={(h) => h.name} onReorder={onReorder}>
        {(host, handle) => <CompactRow host={host} handle={handle} />}
      </SortableList>
    </div>
  );
}
