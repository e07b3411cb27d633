import { Check, ChevronDown, Search } from 'lucide-react';
import { Popover as Radix } from 'radix-ui';
import { useState } from 'react';
import { cn } from '@/lib/cn';

export interface MultiSelectOption {
  value: string;
  label: string;
  /** A second, dimmer line (the host of a container, say). */
  hint?: string | undefined;
}

/** Long option lists render this many matches; the search narrows the rest. */
const SHOWN = 200;

/**
 * A filter button opening a list of checkboxes, searchable when long. The button names the filter and
 * counts the picks; Clear empties them.
 */
export function MultiSelect({
  label,
  options,
  selected,
  onChange,
  searchLabel,
  className,
}: {
  label: string;
  options: readonly MultiSelectOption[];
  selected: readonly string[];
  onChange: (next: string[]) => void;
  /** The search box's label; without one the list has no search (a short, fixed list). */
  searchLabel?: string;
  className?: string;
}) {
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const matches = options.filter(
    (o) =>
      q === '' || o.label.toLowerCase().includes(q) || (o.hint ?? '').toLowerCase().includes(q),
  );
  const toggle = (value: string) =>
    onChange(selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value]);
  return (
    <Radix.Root onOpenChange={(open) => !open && setQuery('')}>
      <Radix.Trigger
        className={cn(
          'inline-flex h-9 items-center gap-1.5 rounded-md border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100 hover:bg-slate-800',
          'focus-visible:outline-2 focus-visible:outline-accent',
          className,
        )}
      >
        {label}
        {selected.length > 0 && (
          <span className="rounded bg-accent px-1.5 text-xs text-white tabular-nums">
            {selected.length}
          </span>
        )}
        <ChevronDown className="h-3.5 w-3.5 text-slate-400" aria-hidden />
      </Radix.Trigger>
      <Radix.Portal>
        <Radix.Content
          align="start"
          sideOffset={6}
          className="z-50 w-72 rounded-lg border border-slate-700 bg-slate-900 p-2 shadow-xl"
        >
          {searchLabel !== undefined && (
            <div className="relative mb-2">
              <Search
                className="pointer-events-none absolute top-2 left-2.5 h-4 w-4 text-slate-500"
                aria-hidden
              />
              <input
                aria-label={searchLabel}
                placeholder="Search..."
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                className="h-8 w-full rounded-md border border-slate-700 bg-slate-950 pr-2 pl-8 text-sm text-slate-100 placeholder:text-slate-500 focus:border-accent focus:outline-none"
              />
            </div>
          )}
          <ul
            role="listbox"
            aria-multiselectable
            aria-label={label}
            className="max-h-72 overflow-y-auto"
          >
            {matches.slice(0, SHOWN).map((o) => {
              const on = selected.includes(o.value);
              return (
                <li key={o.value} role="none">
                  <button
                    type="button"
                    role="option"
                    aria-selected={on}
                    aria-label={o.label}
                    title={o.hint === undefined ? o.label : `${o.label} (${o.hint})`}
                    onClick={() => toggle(o.value)}
                    className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm text-slate-200 hover:bg-slate-800 focus-visible:bg-slate-800 focus-visible:outline-none"
                  >
                    <span
                      className={cn(
                        'flex h-4 w-4 shrink-0 items-center justify-center rounded border',
                        on ? 'border-accent bg-accent text-white' : 'border-slate-600',
                      )}
                    >
                      {on && <Check className="h-3 w-3" aria-hidden />}
                    </span>
                    <span className="min-w-0 flex-1 truncate">{o.label}</span>
                    {o.hint !== undefined && (
                      <span className="max-w-24 shrink-0 truncate text-xs text-slate-500">
                        {o.hint}
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
            {matches.length === 0 && (
              <li className="px-2 py-1.5 text-sm text-slate-500">No matches</li>
            )}
            {matches.length > SHOWN && (
              <li className="px-2 py-1.5 text-xs text-slate-500">
                {matches.length - SHOWN} more; type to narrow
              </li>
            )}
          </ul>
          {selected.length > 0 && (
            <button
              type="button"
              onClick={() => onChange([])}
              className="mt-1 w-full rounded-md px-2 py-1.5 text-left text-xs text-sky-400 hover:bg-slate-800"
            >
              Clear
            </button>
          )}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}
