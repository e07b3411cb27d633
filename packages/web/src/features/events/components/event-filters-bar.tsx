import type { Container, EventCategory, EventSeverity, Host } from '@berth/contracts';
import { Search } from 'lucide-react';
import { useMemo } from 'react';
import { FilterCheck, FilterGroup, FilterSheet } from '@/components/filter-sheet';
import { Input } from '@/components/ui/input';
import { MultiSelect, type MultiSelectOption } from '@/components/ui/multi-select';
import { Select } from '@/components/ui/select';
import { containerKeyOf } from '@berth/contracts';
import {
  CATEGORIES,
  DEFAULT_HOURS,
  NO_FILTERS,
  SEVERITIES,
  TIME_RANGES,
  type EventFilters,
} from '../lib/event-filters';

const toggled = <T,>(list: readonly T[], value: T, on: boolean): T[] =>
  on ? [...new Set([...list, value])] : list.filter((v) => v !== value);
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const CATEGORY_OPTIONS = CATEGORIES.map((c) => ({ value: c, label: capitalise(c) }));
const SEVERITY_OPTIONS = SEVERITIES.map((s) => ({ value: s, label: capitalise(s) }));

/** Picked values no longer listed (a deleted host, a removed container) stay visible. */
function withPicked(options: MultiSelectOption[], picked: readonly string[]): MultiSelectOption[] {
  const known = new Set(options.map((o) => o.value));
  return [...options, ...picked.filter((v) => !known.has(v)).map((v) => ({ value: v, label: v }))];
}

/** The Event Log's filters; the search applies on Enter. */
export function EventFiltersBar({
  filters,
  onFilters,
  hosts,
  containers,
  phone = false,
}: {
  filters: EventFilters;
  onFilters: (next: EventFilters) => void;
  hosts: readonly Host[];
  containers: readonly Container[];
  /** On a phone the search stays in view and the other filters are in a sheet. */
  phone?: boolean;
}) {
  const hostOptions = useMemo(
    () =>
      withPicked(
        [...hosts]
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((h) => ({ value: h.id, label: h.name })),
        filters.hosts,
      ),
    [hosts, filters.hosts],
  );
  // With hosts picked, the containers on offer are theirs.
  const containerOptions = useMemo(
    () =>
      withPicked(
        containers
          .filter((c) => filters.hosts.length === 0 || filters.hosts.includes(c.host_id))
          .sort((a, b) => a.name.localeCompare(b.name) || a.host_name.localeCompare(b.host_name))
          .map((c) => ({ value: containerKeyOf(c), label: c.name, hint: c.host_name })),
        filters.containers,
      ),
    [containers, filters.hosts, filters.containers],
  );
  const search = (
    <div className={phone ? 'relative w-full' : 'relative w-72'}>
      <Search
        className={
          phone
            ? 'pointer-events-none absolute top-3.5 left-3 h-4 w-4 text-slate-500'
            : 'pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-500'
        }
        aria-hidden
      />
      {/* Uncontrolled: typing changes nothing until Enter; Reset remounts it empty. */}
      <Input
        key={filters.search}
        aria-label="Search events"
        placeholder="Search events (text or regex)..."
        title="Press Enter to search; text or a regular expression"
        size={phone ? 'touch' : 'md'}
        className="pl-9"
        defaultValue={filters.search}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          onFilters({ ...filters, search: e.currentTarget.value.trim() });
        }}
      />
    </div>
  );
  const controls = (
    <>
      <Select
        aria-label="Time range"
        value={filters.hours}
        onChange={(e) => onFilters({ ...filters, hours: Number(e.target.value) })}
      >
        {TIME_RANGES.map((r) => (
          <option key={r.hours} value={r.hours}>
            {r.label}
          </option>
        ))}
      </Select>
      <MultiSelect
        label="Category"
        options={CATEGORY_OPTIONS}
        selected={filters.categories}
        onChange={(next) => onFilters({ ...filters, categories: next as EventCategory[] })}
      />
      <MultiSelect
        label="Severity"
        options={SEVERITY_OPTIONS}
        selected={filters.severities}
        onChange={(next) => onFilters({ ...filters, severities: next as EventSeverity[] })}
      />
      <MultiSelect
        label="Hosts"
        options={hostOptions}
        selected={filters.hosts}
        searchLabel="Search hosts"
        onChange={(next) => onFilters({ ...filters, hosts: next })}
      />
      <MultiSelect
        label="Containers"
        options={containerOptions}
        selected={filters.containers}
        searchLabel="Search containers"
        onChange={(next) => onFilters({ ...filters, containers: next })}
      />
    </>
  );
  if (phone) {
    const active =
      filters.categories.length +
      filters.severities.length +
      filters.hosts.length +
      filters.containers.length +
      (filters.hours === DEFAULT_HOURS ? 0 : 1);
    return (
      <div className="mb-4 flex flex-col gap-2">
        {search}
        <div className="flex justify-end">
          <FilterSheet
            active={active}
            noun="events"
            onClear={() => onFilters({ ...NO_FILTERS, search: filters.search })}
          >
            <FilterGroup label="Time range">
              <Select
                aria-label="Time range"
                size="touch"
                className="w-full"
                value={filters.hours}
                onChange={(e) => onFilters({ ...filters, hours: Number(e.target.value) })}
              >
                {TIME_RANGES.map((r) => (
                  <option key={r.hours} value={r.hours}>
                    {r.label}
                  </option>
                ))}
              </Select>
            </FilterGroup>
            <FilterGroup label="Severity">
              {SEVERITY_OPTIONS.map((o) => (
                <FilterCheck
                  key={o.value}
                  label={o.label}
                  checked={filters.severities.includes(o.value)}
                  onChange={(on) =>
                    onFilters({ ...filters, severities: toggled(filters.severities, o.value, on) })
                  }
                />
              ))}
            </FilterGroup>
            <FilterGroup label="Category">
              {CATEGORY_OPTIONS.map((o) => (
                <FilterCheck
                  key={o.value}
                  label={o.label}
                  checked={filters.categories.includes(o.value)}
                  onChange={(on) =>
                    onFilters({ ...filters, categories: toggled(filters.categories, o.value, on) })
                  }
                />
              ))}
            </FilterGroup>
            <FilterGroup label="Hosts and containers">
              <div className="flex flex-col gap-2 border-0 pt-1">
                <MultiSelect
                  label="Hosts"
                  className="w-full justify-between max-md:h-11"
                  options={hostOptions}
                  selected={filters.hosts}
                  searchLabel="Search hosts"
                  onChange={(next) => onFilters({ ...filters, hosts: next })}
                />
                <MultiSelect
                  label="Containers"
                  className="w-full justify-between max-md:h-11"
                  options={containerOptions}
                  selected={filters.containers}
                  searchLabel="Search containers"
                  onChange={(next) => onFilters({ ...filters, containers: next })}
                />
              </div>
            </FilterGroup>
          </FilterSheet>
        </div>
      </div>
    );
  }
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2">
      {search}
      {controls}
    </div>
  );
}
