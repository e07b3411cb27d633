import type { HostContainerSort } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useContainerPanels } from '@/lib/container-panels';
import { containerKeyOf } from '@berth/contracts';
import { HOST_CONTAINER_SORTS, sortHostContainers } from '@/lib/container-sort';
import { formatPercent } from '@/lib/format';
import { usePreferences, useUpdatePreferences } from '@/lib/preferences';
import { hostContainersQueryOptions } from '@/lib/queries';

const SHOWN = 5;

/** Five containers of the host, sort saved per host (default State). */
export function HostContainersCard({ hostId }: { hostId: string }) {
  const prefs = usePreferences().data;
  const update = useUpdatePreferences();
  const { openContainer } = useContainerPanels();
  const containers = useQuery(hostContainersQueryOptions(hostId)).data ?? [];
  const sort: HostContainerSort = prefs?.hostContainerSorts[hostId] ?? 'state';
  const shown = sortHostContainers(containers, sort).slice(0, SHOWN);
  return (
    <div>
      <div className="mb-2 flex items-center justify-between">
        <span className="text-xs text-slate-400">
          {containers.length} containers · {containers.filter((c) => c.state === 'running').length}{' '}
          running
        </span>
        <select
          aria-label="Sort host containers"
          value={sort}
          onChange={(e) => {
            const next = HOST_CONTAINER_SORTS.find((s) => s.value === e.target.value);
            if (next !== undefined)
              update.mutate({
                hostContainerSorts: { ...prefs?.hostContainerSorts, [hostId]: next.value },
              });
          }}
          className="rounded border border-slate-700 bg-slate-900 px-2 py-1 text-xs text-slate-200"
        >
          {HOST_CONTAINER_SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <ul
        className="divide-y divide-slate-800 rounded-lg border border-slate-800"
        data-testid="drawer-containers"
      >
        {shown.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className="flex w-full items-center justify-between gap-3 px-3 py-2 text-left text-sm hover:bg-slate-800/60"
              onClick={() => openContainer(containerKeyOf(c), { view: 'drawer' })}
            >
              <span className="truncate text-slate-200">{c.name}</span>
              <span className="shrink-0 text-xs text-slate-400">
                {c.state === 'running'
                  ? `${formatPercent(c.cpu_percent)} · ${formatPercent(c.memory_percent)}`
                  : c.state}
              </span>
            </button>
          </li>
        ))}
        {shown.length === 0 && <li className="px-3 py-2 text-sm text-slate-500">No containers</li>}
      </ul>
    </div>
  );
}
