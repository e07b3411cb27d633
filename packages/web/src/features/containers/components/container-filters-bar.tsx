import type { Host } from '@berth/contracts';
import { ChevronDown, Search } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import {
  hasFilters,
  NO_FILTERS,
  type ContainerFilters,
  type Toggle,
} from '../lib/container-filters';

function FilterMenu({
  label,
  count,
  children,
}: {
  label: string;
  count: number;
  children: ReactNode;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="inline-flex h-8 items-center gap-1 rounded-md border border-slate-700 bg-slate-800 px-3 text-sm text-slate-100 hover:bg-slate-700">
        {label}
        {count > 0 && <span className="rounded bg-accent px-1.5 text-xs text-white">{count}</span>}
        <ChevronDown className="h-3.5 w-3.5" />
      </DropdownMenuTrigger>
      <DropdownMenuContent side="bottom">{children}</DropdownMenuContent>
    </DropdownMenu>
  );
}

const toggled = <T,>(list: T[], value: T, on: boolean) =>
  on ? [...new Set([...list, value])] : list.filter((v) => v !== value);

const POLICIES = [
  { key: 'autoRestart', label: 'Auto-restart' },
  { key: 'autoUpdate', label: 'Auto-update' },
  { key: 'healthCheck', label: 'Health check' },
] as const;

/** Search, the Hosts / Policy / State filters and Clear Filters. */
export function ContainerFiltersBar({
  hosts,
  filters,
  onFilters,
  search,
  onSearch,
  count,
  scopedHostId,
}: {
  hosts: Host[];
  filters: ContainerFilters;
  onFilters: (next: ContainerFilters) => void;
  search: string;
  onSearch: (text: string) => void;
  count: number;
  scopedHostId?: string | undefined;
}) {
  const policy = (key: 'autoRestart' | 'autoUpdate' | 'healthCheck', value: Toggle, on: boolean) =>
    onFilters({ ...filters, [key]: on ? value : null });
  return (
    <>
      <div className="relative w-64">
        <Search
          className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-500"
          aria-hidden
        />
        <Input
          aria-label="Search containers"
          placeholder="Search containers..."
          size="md"
          className="pl-9"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
        />
      </div>
      <span className="text-sm text-slate-400" data-testid="container-count">
        {count} container(s)
      </span>
      {scopedHostId === undefined && (
        <FilterMenu label="Hosts" count={filters.hosts.length}>
          {hosts.map((h) => (
            <DropdownMenuCheckboxItem
              key={h.id}
              checked={filters.hosts.includes(h.id)}
              onCheckedChange={(on) =>
                onFilters({ ...filters, hosts: toggled(filters.hosts, h.id, on) })
              }
            >
              {h.name}
            </DropdownMenuCheckboxItem>
          ))}
        </FilterMenu>
      )}
      <FilterMenu
        label="Policy"
        count={
          (filters.autoRestart === null ? 0 : 1) +
          (filters.autoUpdate === null ? 0 : 1) +
          (filters.healthCheck === null ? 0 : 1) +
          filters.desired.length
        }
      >
        {POLICIES.map(({ key, label }) =>
          (['enabled', 'disabled'] as const).map((value) => (
            <DropdownMenuCheckboxItem
              key={`${key}-${value}`}
              checked={filters[key] === value}
              onCheckedChange={(on) => policy(key, value, on)}
            >
              {label} {value}
            </DropdownMenuCheckboxItem>
          )),
        )}
        {(['should_run', 'on_demand', 'unspecified'] as const).map((d) => (
          <DropdownMenuCheckboxItem
            key={d}
            checked={filters.desired.includes(d)}
            onCheckedChange={(on) =>
              onFilters({ ...filters, desired: toggled(filters.desired, d, on) })
            }
          >
            Desired:{' '}
            {d === 'should_run' ? 'Should Run' : d === 'on_demand' ? 'On-Demand' : 'Unspecified'}
          </DropdownMenuCheckboxItem>
        ))}
      </FilterMenu>
      <FilterMenu label="State" count={filters.states.length}>
        {(['running', 'stopped'] as const).map((s) => (
          <DropdownMenuCheckboxItem
            key={s}
            checked={filters.states.includes(s)}
            onCheckedChange={(on) =>
              onFilters({ ...filters, states: toggled(filters.states, s, on) })
            }
          >
            {s === 'running' ? 'Running' : 'Stopped'}
          </DropdownMenuCheckboxItem>
        ))}
      </FilterMenu>
      {/* Scoped to a host, that host is not a filter the user can clear. */}
      {hasFilters(scopedHostId === undefined ? filters : { ...filters, hosts: [] }) && (
        <Button
          size="sm"
          variant="ghost"
          onClick={() =>
            onFilters({ ...NO_FILTERS, hosts: scopedHostId === undefined ? [] : [scopedHostId] })
          }
        >
          Clear Filters
        </Button>
      )}
    </>
  );
}
