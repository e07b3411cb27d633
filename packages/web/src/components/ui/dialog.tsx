import { X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * Dialog widths; `screen` fills the window but for a margin (all of it on a phone), for the
 * detail dialogs.
 */
const SIZES = {
  md: 'w-[calc(100vw-2rem)] max-w-md',
  lg: 'w-[calc(100vw-2rem)] max-w-lg',
  xl: 'w-[calc(100vw-2rem)] max-w-xl',
  '5xl': 'w-[calc(100vw-2rem)] max-w-5xl',
  // On a phone the whole screen, edge to edge.
  screen:
    'h-[calc(100vh-3rem)] w-[calc(100vw-3rem)] max-md:top-0 max-md:left-0 max-md:h-dvh max-md:w-screen max-md:translate-x-0 max-md:translate-y-0 max-md:rounded-none max-md:border-0 max-md:p-4',
} as const;

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  /** A forced dialog has no close button and ignores Escape and outside clicks. */
  forced?: boolean;
  size?: keyof typeof SIZES;
  /** Added to the dialog's classes; its size comes from `size` (`cn` does not merge). */
  className?: string;
  children: ReactNode;
}

/** A centred modal dialog on Radix, with our look. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  forced = false,
  size = 'md',
  className,
  children,
}: DialogProps) {
  const block = (e: Event) => {
    if (forced) e.preventDefault();
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => !forced && onOpenChange(next)}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/60 backdrop-blur-sm" />
        <RadixDialog.Content
          onEscapeKeyDown={block}
          onPointerDownOutside={block}
          onInteractOutside={block}
          className={cn(
            'fixed top-1/2 left-1/2 z-50 -translate-x-1/2 -translate-y-1/2',
            SIZES[size],
            'rounded-xl border border-slate-800 bg-slate-900 p-6 shadow-2xl',
            className,
          )}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div className="max-md:min-w-0 max-md:break-words">
              <RadixDialog.Title className="text-lg font-semibold text-white">
                {title}
              </RadixDialog.Title>
              {description === undefined ? (
                <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
              ) : (
                <RadixDialog.Description className="mt-1 text-sm text-slate-400">
                  {description}
                </RadixDialog.Description>
              )}
            </div>
            {!forced && (
              <RadixDialog.Close
                aria-label="Close"
                className="rounded p-1 text-slate-400 hover:bg-slate-800 hover:text-white max-md:-m-2.5 max-md:p-3.5"
              >
                <X className="h-4 w-4" />
              </RadixDialog.Close>
            )}
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
