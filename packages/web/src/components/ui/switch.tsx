import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** An on/off control (a checkbox with the switch role) with its text beside it. */
export function Switch({
  label,
  checked,
  onCheckedChange,
  className,
  children,
}: {
  /** The accessible name. */
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  className?: string;
  /** The visible text beside the control. */
  children: ReactNode;
}) {
  return (
    // The whole label toggles it: 44 px tall on a phone.
    <label className={cn('inline-flex items-center gap-2 max-md:min-h-11', className)}>
      <input
        type="checkbox"
        role="switch"
        aria-label={label}
        checked={checked}
        onChange={(e) => onCheckedChange(e.target.checked)}
      />
      {children}
    </label>
  );
}
