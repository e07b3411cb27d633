import type { SelectHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';
import { CONTROL_HEIGHTS, type ControlSize } from './input';

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'size'> {
  /** Height; filter bars use the default `md`, forms `lg`. */
  size?: ControlSize;
}

/**
 * A native select with our look: keyboard and screen readers work as the browser made them.
 * Its height comes from `size`: `className` adds classes and cannot override it.
 */
export function Select({ size = 'md', className, ...props }: SelectProps) {
  return (
    <select
      className={cn(
        CONTROL_HEIGHTS[size],
        'rounded-md border border-slate-700 bg-slate-900 px-2 text-sm text-slate-100',
        'focus-visible:outline-2 focus-visible:outline-accent',
        className,
      )}
      {...props}
    />
  );
}
