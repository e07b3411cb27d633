import type { SelectHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** A native select with our look: keyboard and screen readers work as the browser made them. */
export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        'h-9 rounded-md border border-slate-700 bg-slate-900 px-2 text-sm text-slate-100',
        'focus-visible:outline-2 focus-visible:outline-accent',
        className,
      )}
      {...props}
    />
  );
}
