import {
  alertSeveritySchema,
  alertStateSchema,
  type AlertSeverity,
  type AlertState,
} from '@berth/contracts';
import { X } from 'lucide-react';
import type { AlertFilters } from '@/lib/alerts';
import { cn } from '@/lib/cn';

export const STATES: { value: AlertState; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'snoozed', label: 'Snoozed' },
  { value: 'resolved', label: 'Resolved' },
];
export const SEVERITIES: { value: AlertSeverity; label: string }[] = [
  { value: 'critical', label: 'Critical' },
  { value: 'error', label: 'Error' },
  { value: 'warning', label: 'Warning' },
  { value: 'info', label: 'Info' },
];
export const SCOPES: { value: 'host' | 'container'; label: string }[] = [
  { value: 'host', label: 'Host' },
  { value: 'container', label: 'Container' },
];

/** The filters in the query string: unknown values are ignored. */
export function readAlertFilters(params: URLSearchParams): AlertFilters {
  const state = alertStateSchema.safeParse(params.get('state'));
  const severity = alertSeveritySchema.safeParse(params.get('severity'));
  const scope = params.get('scope_type');
  const scopeId = params.get('scope_id');
  return {
    ...(state.success ? { state: state.data } : {}),
    ...(severity.success ? { severity: severity.data } : {}),
    ...(scope === 'host' || scope === 'container' ? { scope_type: scope } : {}),
    ...(scopeId !== null && scopeId !== '' ? { scope_id: scopeId } : {}),
  };
}

/** State, Severity and Scope buttons: clicking the active one clears it. */
export function AlertFilterButtons({
  filters,
  onFilters,
  scopeName,
}: {
  filters: AlertFilters;
  onFilters: (next: AlertFilters) => void;
  scopeName: string | undefined;
}) {
  const toggle = <K extends 'state' | 'severity' | 'scope_type'>(key: K, value: AlertFilters[K]) =>
    onFilters({ ...filters, [key]: filters[key] === value ? undefined : value });
  return (
    <div className="mb-4 flex flex-wrap items-center gap-x-6 gap-y-3" data-testid="alert-filters">
      <Group label="State">
        {STATES.map((o) => (
          <FilterButton
            key={o.value}
            active={filters.state === o.value}
            onClick={() => toggle('state', o.value)}
          >
            {o.label}
          </FilterButton>
        ))}
      </Group>
      <Group label="Severity">
        {SEVERITIES.map((o) => (
          <FilterButton
            key={o.value}
            active={filters.severity === o.value}
            onClick={() => toggle('severity', o.value)}
          >
            {o.label}
          </FilterButton>
        ))}
      </Group>
      <Group label="Scope">
        {SCOPES.map((o) => (
          <FilterButton
            key={o.value}
            active={filters.scope_type === o.value}
            onClick={() => toggle('scope_type', o.value)}
          >
            {o.label}
          </FilterButton>
        ))}
      </Group>
      {filters.scope_id !== undefined && (
        <button
          type="button"
          aria-label="Clear scope filter"
          onClick={() => onFilters({ ...filters, scope_id: undefined })}
          className="inline-flex items-center gap-1.5 rounded-full border border-accent/50 bg-accent/15 px-3 py-1 text-xs text-slate-100 hover:bg-accent/25"
        >
          {scopeName ?? filters.scope_id}
          <X className="h-3 w-3" aria-hidden />
        </button>
      )}
    </div>
  );
}

function Group({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div role="group" aria-label={label} className="flex items-center gap-1.5">
      <span className="mr-1 text-xs tracking-wide text-slate-500 uppercase">{label}</span>
      {children}
    </div>
  );
}

function FilterButton({
  active,
  onClick,
  children,
}: {
  active: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn(
        'rounded-md border px-2.5 py-1 text-xs font-medium transition-colors',
        active
          ? 'border-accent bg-accent/20 text-white'
          : 'border-slate-700 text-slate-300 hover:bg-slate-800 hover:text-white',
      )}
    >
      {children}
    </button>
  );
}
