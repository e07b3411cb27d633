import { X } from 'lucide-react';
import { FilterCheck, FilterGroup, FilterSheet } from '@/components/filter-sheet';
import type { AlertFilters } from '@/lib/alerts';
import { SCOPES, SEVERITIES, STATES } from './alert-filters';

type Key = 'state' | 'severity' | 'scope_type';

/** The Alerts page's filters on a phone: the same State, Severity and Scope, in a sheet. */
export function AlertFiltersSheet({
  filters,
  onFilters,
  scopeName,
  shown,
}: {
  filters: AlertFilters;
  onFilters: (next: AlertFilters) => void;
  scopeName: string | undefined;
  shown: number | undefined;
}) {
  const pick = <K extends Key>(key: K, value: AlertFilters[K], on: boolean) =>
    onFilters({ ...filters, [key]: on ? value : undefined });
  const groups: { key: Key; label: string; options: { value: string; label: string }[] }[] = [
    { key: 'state', label: 'State', options: STATES },
    { key: 'severity', label: 'Severity', options: SEVERITIES },
    { key: 'scope_type', label: 'Scope', options: SCOPES },
  ];
  const active = groups.filter((g) => filters[g.key] !== undefined).length;
  return (
    <div className="mb-4 flex flex-wrap items-center justify-end gap-2" data-testid="alert-filters">
      {filters.scope_id !== undefined && (
        <button
          type="button"
          aria-label="Clear scope filter"
          onClick={() => onFilters({ ...filters, scope_id: undefined })}
          className="mr-auto inline-flex min-h-11 max-w-full items-center gap-1.5 truncate rounded-full border border-accent/50 bg-accent/15 px-3 text-xs text-slate-100"
        >
          <span className="truncate">{scopeName ?? filters.scope_id}</span>
          <X className="h-3 w-3 shrink-0" aria-hidden />
        </button>
      )}
      <FilterSheet
        active={active}
        {...(shown === undefined ? {} : { shown })}
        noun="alerts"
        onClear={() => onFilters({ scope_id: filters.scope_id })}
      >
        {groups.map((g) => (
          <FilterGroup key={g.key} label={g.label}>
            {g.options.map((o) => (
              <FilterCheck
                key={o.value}
                label={o.label}
                checked={filters[g.key] === o.value}
                onChange={(on) => pick(g.key, o.value as AlertFilters[typeof g.key], on)}
              />
            ))}
          </FilterGroup>
        ))}
      </FilterSheet>
    </div>
  );
}
