import { SlidersHorizontal } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Sheet } from '@/components/ui/sheet';

/**
 * A list's filters on a phone: a "Filters" button (with how many are set) opening a sheet
 * that holds them, with Clear and a Done button that says how many records are shown.
 */
export function FilterSheet({
  active,
  shown,
  noun,
  onClear,
  children,
}: {
  /** How many filters are set. */
  active: number;
  /** How many records the filters leave, when known. */
  shown?: number;
  /** What the records are, in the plural ("containers"). */
  noun: string;
  onClear: () => void;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="touch" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <SlidersHorizontal className="h-4 w-4" aria-hidden />
        Filters
        {active > 0 && (
          <span className="rounded bg-accent px-1.5 text-xs text-white" data-testid="filter-count">
            {active}
          </span>
        )}
      </Button>
      <Sheet open={open} onOpenChange={setOpen} title="Filters" width={420}>
        <div className="space-y-5" data-testid="filter-sheet">
          {children}
        </div>
        <div className="sticky bottom-0 -mx-5 -mb-4 mt-5 flex gap-2 border-t border-slate-800 bg-slate-900 px-5 py-3">
          <Button
            variant="ghost"
            size="touch"
            className="flex-1"
            onClick={onClear}
            disabled={active === 0}
          >
            Clear
          </Button>
          <Button size="touch" className="flex-1" onClick={() => setOpen(false)}>
            {shown === undefined
              ? 'Done'
              : `Show ${shown} ${shown === 1 ? noun.replace(/s$/, '') : noun}`}
          </Button>
        </div>
      </Sheet>
    </>
  );
}

/** A titled group of choices in a filter sheet. */
export function FilterGroup({ label, children }: { label: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend className="mb-1 text-xs tracking-wide text-slate-500 uppercase">{label}</legend>
      <div className="divide-y divide-slate-800">{children}</div>
    </fieldset>
  );
}

/** One choice: a whole 44 px row toggles it. */
export function FilterCheck({
  label,
  checked,
  onChange,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm text-slate-200">
      <input
        type="checkbox"
        className="h-5 w-5 shrink-0"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {label}
    </label>
  );
}
