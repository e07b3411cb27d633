import type { Container, HostContainerSort } from '@berth/contracts';
import { AlertTriangle, ChevronDown } from 'lucide-react';
import { memo, useState } from 'react';
import { ActionMenu, DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/cn';
import { HOST_CONTAINER_SORTS, sortHostContainers } from '@/lib/container-sort';
import { SHOULD_RUN_FLAG, shouldBeRunning } from '@/lib/container-state';
import { formatPercent } from '@/lib/format';
import { ContainerInfoDialog } from './container-info-dialog';
import { ContainerMenu } from './container-menu';

const STATE_DOT: Partial<Record<Container['state'], string>> = {
  running: 'bg-emerald-400',
  paused: 'bg-amber-400',
  restarting: 'bg-sky-400',
  dead: 'bg-red-500',
};

/** Containers of a host card: all of them (expanded) or the top 3 (standard). */
export const CardContainerList = memo(function CardContainerList({
  containers,
  sort,
  limit,
  onSort,
}: {
  containers: Container[];
  sort: HostContainerSort;
  limit?: number;
  onSort: (sort: HostContainerSort) => void;
}) {
  const [info, setInfo] = useState<Container | null>(null);
  const sorted = sortHostContainers(containers, sort);
  const shown = limit === undefined ? sorted : sorted.slice(0, limit);
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="mb-1 flex items-center justify-between text-xs text-slate-500">
        <span>Containers</span>
        {/* A lazily mounted menu, not a native select: fifty cards, fifty pickers. */}
        <ActionMenu
          label="Sort containers"
          icon={
            <span className="inline-flex items-center gap-1">
              {HOST_CONTAINER_SORTS.find((s) => s.value === sort)?.label}
              <ChevronDown className="h-3 w-3" />
            </span>
          }
          className="rounded px-1 text-xs text-slate-400 hover:text-white max-md:-my-3 max-md:min-h-11 max-md:px-3"
        >
          {HOST_CONTAINER_SORTS.map((s) => (
            <DropdownMenuItem
              key={s.value}
              onSelect={() => onSort(s.value)}
              disabled={s.value === 'start_time'}
            >
              {s.label}
            </DropdownMenuItem>
          ))}
        </ActionMenu>
      </div>
      <ul className="min-h-0 flex-1 overflow-y-auto">
        {shown.map((c) => (
          <li
            key={c.id}
            data-testid={`card-container-${c.name}`}
            data-state={c.state}
            className="flex h-9 items-center gap-2 rounded px-1 text-sm hover:bg-slate-800/60 max-md:h-11"
          >
            <span
              className={cn('h-2 w-2 shrink-0 rounded-full', STATE_DOT[c.state] ?? 'bg-slate-600')}
              aria-label={c.state}
            />
            <button
              type="button"
              onClick={(e) => {
                e.stopPropagation();
                setInfo(c);
              }}
              className="min-w-0 flex-1 truncate text-left text-slate-200 hover:text-white max-md:self-stretch"
            >
              {c.name}
            </button>
            {shouldBeRunning(c) && (
              <AlertTriangle
                className="h-3.5 w-3.5 shrink-0 text-amber-400"
                aria-label={SHOULD_RUN_FLAG}
              />
            )}
            <span className="w-12 shrink-0 text-right text-xs text-slate-500 tabular-nums">
              {c.state === 'running' ? formatPercent(c.cpu_percent) : c.state}
            </span>
            <ContainerMenu container={c} />
          </li>
        ))}
        {shown.length === 0 && <li className="py-2 text-xs text-slate-500">No containers</li>}
      </ul>
      {info !== null && <ContainerInfoDialog container={info} onClose={() => setInfo(null)} />}
    </div>
  );
});
