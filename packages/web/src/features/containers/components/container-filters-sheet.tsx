import type { Host } from '@berth/contracts';
import { Search } from 'lucide-react';
import { FilterCheck, FilterGroup, FilterSheet } from '@/components/filter-sheet';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NO_FILTERS, type ContainerFilters, type Toggle } from '../lib/container-filters';

const toggled = <T,>(list: T[], value: T, on: boolean) =>
  on ? [...new Set([...list, value])] : list.filter((v) => v !== value);

const POLICIES = [
  { key: 'autoRestart', label: 'Auto-restart' },
  { key: 'autoUpdate', label: 'Auto-update' },
  { key: 'healthCheck', label: 'Health check' },
] as const;
const DESIRED = [
  { value: 'should_run', label: 'Should Run' },
  { value: 'on_demand', label: 'On-Demand' },
  { value: 'unspecified', label: 'Unspecified' },
] as const;

/** How many filters are set (a scoped host's own filter is not one the user set). */
function activeCount(f: ContainerFilters, scoped: boolean): number {
  return (
    (scoped ? 0 : f.hosts.length) +
    f.states.length +
    (f.autoRestart === null ? 0 : 1) +
    (f.autoUpdate === null ? 0 : 1) +
    (f.healthCheck === null ? 0 : 1) +
    (f.updates ? 1 : 0) +
    f.desired.length
  );
}

/**
 * The containers list's toolbar on a phone: search, the count, a Filters button opening the
 * same filters as the desktop bar in a sheet, and Select mode for bulk actions.
 */
export function ContainerPhoneToolbar({
  hosts,
  filters,
  onFilters,
  search,
  onSearch,
  count,
  scopedHostId,
  selecting,
  onSelecting,
  onSelectAll,
}: {
  hosts: Host[];
  filters: ContainerFilters;
  onFilters: (next: ContainerFilters) => void;
  search: string;
  onSearch: (text: string) => void;
  count: number;
  scopedHostId?: string | undefined;
  selecting: boolean;
  onSelecting: (on: boolean) => void;
  onSelectAll: () => void;
}) {
  const scoped = scopedHostId !== undefined;
  const policy = (key: 'autoRestart' | 'autoUpdate' | 'healthCheck', value: Toggle, on: boolean) =>
    onFilters({ ...filters, [key]: on ? value : null });
  return (
    <div className="flex w-full flex-col gap-2">
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-3.5 left-3 h-4 w-4 text-slate-500"
          aria-hidden
        />
        <Input
          aria-label="Search containers"
          placeholder="Search containers..."
          size="touch"
          className="pl-9"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
        />
      </div>
      <div className="flex items-center gap-2">
        <span className="mr-auto text-sm text-slate-400" data-testid="container-count">
          {count} container(s)
        </span>
        {selecting ? (
          <>
            <Button variant="ghost" size="touch" onClick={onSelectAll}>
              All
            </Button>
            <Button variant="secondary" size="touch" onClick={() => onSelecting(false)}>
              Done
            </Button>
          </>
        ) : (
          <>
            <FilterSheet
              active={activeCount(filters, scoped)}
              shown={count}
              noun="containers"
              onClear={() => onFilters({ ...NO_FILTERS, hosts: scoped ? [scopedHostId] : [] })}
            >
              <FilterGroup label="State">
                {(['running', 'stopped'] as const).map((s) => (
                  <FilterCheck
                    key={s}
                    label={s === 'running' ? 'Running' : 'Stopped'}
                    checked={filters.states.includes(s)}
                    onChange={(on) =>
                      onFilters({ ...filters, states: toggled(filters.states, s, on) })
                    }
                  />
                ))}
              </FilterGroup>
              {!scoped && hosts.length > 0 && (
                <FilterGroup label="Hosts">
                  {hosts.map((h) => (
                    <FilterCheck
                      key={h.id}
                      label={h.name}
                      checked={filters.hosts.includes(h.id)}
                      onChange={(on) =>
                        onFilters({ ...filters, hosts: toggled(filters.hosts, h.id, on) })
                      }
                    />
                  ))}
                </FilterGroup>
              )}
              <FilterGroup label="Policy">
                {POLICIES.map(({ key, label }) =>
                  (['enabled', 'disabled'] as const).map((value) => (
                    <FilterCheck
                      key={`${key}-${value}`}
                      label={`${label} ${value}`}
                      checked={filters[key] === value}
                      onChange={(on) => policy(key, value, on)}
                    />
                  )),
                )}
                <FilterCheck
                  label="Updates available"
                  checked={filters.updates}
                  onChange={(on) => onFilters({ ...filters, updates: on })}
                />
              </FilterGroup>
              <FilterGroup label="Desired state">
                {DESIRED.map((d) => (
                  <FilterCheck
                    key={d.value}
                    label={d.label}
                    checked={filters.desired.includes(d.value)}
                    onChange={(on) =>
                      onFilters({ ...filters, desired: toggled(filters.desired, d.value, on) })
                    }
                  />
                ))}
              </FilterGroup>
            </FilterSheet>
            <Button variant="secondary" size="touch" onClick={() => onSelecting(true)}>
              Select
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
