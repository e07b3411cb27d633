import { useId } from 'react';
import { cn } from '@/lib/cn';

/**
 * A row of mutually exclusive options as a radio group (e.g. the view mode). Native radios:
 * the browser gives them arrow keys and one tab stop, and the dashboard's first render does
 * not pay for a radio-group library's code (Radix's took ~20 ms of it on a cold load).
 */
export function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className="inline-flex rounded-md border border-slate-700 bg-slate-900 p-0.5 max-md:flex-wrap"
    >
      {options.map((option) => {
        const checked = option.value === value;
        return (
          <label
            key={option.value}
            data-state={checked ? 'checked' : 'unchecked'}
            className={cn(
              'relative rounded px-3 py-1.5 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent',
              // A 44 px touch target on a phone.
              'max-md:flex max-md:min-h-11 max-md:items-center',
              checked ? 'bg-slate-700 text-white' : 'text-slate-400 hover:text-white',
            )}
          >
            {/* Over the whole option, unseen: a click anywhere on it is a click on the radio. */}
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={checked}
              onChange={() => onChange(option.value)}
              className="absolute inset-0 cursor-pointer opacity-0"
            />
            {option.label}
          </label>
        );
      })}
    </div>
  );
}
