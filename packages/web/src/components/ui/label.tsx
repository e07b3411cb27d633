import type { LabelHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

export interface LabelProps extends LabelHTMLAttributes<HTMLLabelElement> {
  /** Sits beside its control rather than above it: no margin below. */
  inline?: boolean;
}

export function Label({ inline = false, className, ...props }: LabelProps) {
  return (
    <label
      className={cn(!inline && 'mb-1.5 block', 'text-sm font-medium text-slate-300', className)}
      {...props}
    />
  );
}
