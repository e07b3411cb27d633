import type { Host, HostContainerSort } from '@berth/contracts';
import { GripVertical, MoreHorizontal } from 'lucide-react';
import { memo, useRef, useState } from 'react';
import { ActionMenu, DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { useHostPanels } from '@/lib/host-panels';
import { usePreferences, useUpdatePreferences } from '@/lib/preferences';
import { useHostContainers } from '../api/dashboard-api';
import { useInViewport } from '../hooks/use-in-viewport';
import type { CardMode } from '../lib/host-layouts';
import { CardContainerList } from './card-container-list';
import { CardDay } from './card-day';
import { CardMetrics } from './card-metrics';
import { StatusDot, TagChips } from '@/components/host-status';
import { HostUptime } from '@/components/host-uptime';

/** State first in the expanded card, cpu in the standard one. */
const DEFAULT_SORT: Record<CardMode, HostContainerSort> = { expanded: 'state', standard: 'cpu' };
const TOP_IN_STANDARD = 3;

/** One host on the dashboard (standard and expanded modes). */
export const HostCard = memo(function HostCard({ host, mode }: { host: Host; mode: CardMode }) {
  const panels = useHostPanels();
  const prefs = usePreferences().data;
  const updatePrefs = useUpdatePreferences();
  const containers = useHostContainers(host.id);
  const [listOpen, setListOpen] = useState(true);
  const box = useRef<HTMLElement>(null);
  const optimized = prefs?.dashboard.optimizedLoading ?? true;
  const visible = useInViewport(box, optimized);
  const sort = prefs?.hostContainerSorts[host.id] ?? DEFAULT_SORT[mode];
  const setSort = (next: HostContainerSort) =>
    updatePrefs.mutate({ hostContainerSorts: { ...prefs?.hostContainerSorts, [host.id]: next } });
  // The card's option: the last 24 h from history instead of the live sparklines.
  const historyCards = prefs?.dashboard.historyCards ?? [];
  const showDay = historyCards.includes(host.id);
  const setShowDay = (on: boolean) =>
    updatePrefs.mutate({
      dashboard: {
        historyCards: on
          ? [...historyCards.filter((id) => id !== host.id), host.id]
          : historyCards.filter((id) => id !== host.id),
      },
    });
  const running = containers.filter((c) => c.state === 'running').length;
  const online = host.status === 'online' || host.status === 'degraded';

  return (
    <article
      ref={box}
      data-testid={`host-card-${host.name}`}
      data-status={host.status}
      data-sparklines={showDay ? 'day' : optimized && !visible ? 'paused' : 'live'}
      onClick={(e) => {
        // Menus and dialogs render in portals; their clicks bubble here through React only.
        if (e.currentTarget.contains(e.target as Node)) panels.openHost(host.id);
      }}
      className="flex h-full cursor-pointer flex-col gap-3 overflow-hidden rounded-xl border border-slate-800 bg-slate-900/70 p-3 hover:border-slate-700"
    >
      <header className="flex items-start gap-2">
        <GripVertical
          className="host-drag-handle mt-0.5 h-4 w-4 shrink-0 cursor-move text-slate-600 max-md:hidden"
          aria-label={`Drag ${host.name}`}
          onClick={(e) => e.stopPropagation()}
        />
        <StatusDot status={host.status} className="mt-1" />
        <div className="min-w-0 flex-1">
          <h3 className="truncate text-sm font-semibold text-white">{host.name}</h3>
          <TagChips tags={host.tags} max={3} />
        </div>
        <ActionMenu
          label={`Host menu for ${host.name}`}
          icon={<MoreHorizontal className="h-4 w-4" />}
          className="rounded p-1 text-slate-400 hover:bg-slate-800 hover:text-white max-md:-m-2.5 max-md:p-3.5"
        >
          <DropdownMenuItem onSelect={() => panels.openHost(host.id, { expanded: true })}>
            View Host Details
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => panels.editHost(host.id)}>Edit Host</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setShowDay(!showDay)}>
            {showDay ? 'Show Live Sparklines' : 'Show Last 24 Hours'}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setListOpen((open) => !open)}>
            {listOpen ? 'Collapse Containers' : 'Expand Containers'}
          </DropdownMenuItem>
        </ActionMenu>
      </header>
      {showDay ? (
        <CardDay hostId={host.id} allowGb={mode === 'expanded'} />
      ) : online ? (
        <CardMetrics
          sparklines={host.sparklines}
          cpu={host.stats?.cpu_percent ?? null}
          mem={host.stats?.mem_percent ?? null}
          net={host.stats?.net_bytes_per_sec ?? null}
          allowGb={mode === 'expanded'}
          paused={optimized && !visible}
        />
      ) : (
        <p className="py-3 text-xs text-slate-400" data-testid="host-offline">
          {host.status === 'error' ? 'Error' : 'Offline'}
          {host.error !== null && `: ${host.error}`}
        </p>
      )}
      {/* Each count stays whole; one that does not fit goes to the next line. */}
      <div
        className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs whitespace-nowrap text-slate-400"
        data-testid="card-counts"
      >
        <span>
          <span className="text-slate-200 tabular-nums">
            {running}/{containers.length}
          </span>{' '}
          running
        </span>
        {host.updates_available > 0 && (
          <span className="text-sky-300">{host.updates_available} updates</span>
        )}
        <span className={host.alerts.open > 0 ? 'text-red-300' : ''}>
          {host.alerts.open} alerts
          {mode === 'standard' && host.alerts.snoozed > 0 && ` (${host.alerts.snoozed} snoozed)`}
        </span>
        {online && (
          <span className="ml-auto">
            up <HostUptime host={host} />
          </span>
        )}
      </div>
      {listOpen && (
        <CardContainerList
          containers={containers}
          sort={sort}
          onSort={setSort}
          {...(mode === 'standard' ? { limit: TOP_IN_STANDARD } : {})}
        />
      )}
    </article>
  );
});
