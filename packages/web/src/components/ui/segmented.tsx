import { RadioGroup } from 'radix-ui';
import { cn } from '@/lib/cn';

/** A row of mutually exclusive options as a radio group (e.g. the view mode). */
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
  return (
    <RadioGroup.Root
      aria-label={label}
      value={value}
      onValueChange={(v) => {
        const option = options.find((o) => o.value === v);
        if (option !== undefined) onChange(option.value);
      }}
      orientation="horizontal"
      className="inline-flex rounded-md border border-slate-700 bg-slate-900 p-0.5"
    >
      {options.map((option) => (
        <RadioGroup.Item
          key={option.value}
          value={option.value}
          className={cn(
            'rounded px-3 py-1.5 text-sm text-slate-400 outline-none hover:text-white',
            'focus-visible:ring-2 focus-visible:ring-accent data-[state=checked]:bg-slate-700 data-[state=checked]:text-white',
          )}
        >
          {option.label}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
