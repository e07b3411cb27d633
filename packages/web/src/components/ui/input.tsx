import type { InputHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** Control heights shared by Input and Select: h-8, h-9 (filter bars), h-10 (forms), h-11 (phones). */
export const CONTROL_HEIGHTS = { sm: 'h-8', md: 'h-9', lg: 'h-10', touch: 'h-11' } as const;
export type ControlSize = keyof typeof CONTROL_HEIGHTS;

export interface InputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  /** Height; forms use the default `lg`. */
  size?: ControlSize;
  /** Fills its row (the default); without it, `className` gives the width. */
  fullWidth?: boolean;
}

/**
 * Our text input. Its height and width come from props: `className` adds classes and cannot
 * override them (`cn` does not merge).
 */
export function Input({ size = 'lg', fullWidth = true, className, ...props }: InputProps) {
  return (
    <input
      className={cn(
        CONTROL_HEIGHTS[size],
        fullWidth && 'w-full',
        'rounded-md border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100',
        'placeholder:text-slate-500 focus:border-accent focus:outline-none focus:ring-1 focus:ring-accent',
        className,
      )}
      {...props}
    />
  );
}
