import { X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';

/** A panel sliding in from the right edge (the host drawer), on Radix Dialog. */
export function Sheet({
  open,
  onOpenChange,
  title,
  actions,
  width = 600,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  actions?: ReactNode;
  width?: number;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <RadixDialog.Content
          className="fixed top-0 right-0 z-50 flex h-full max-w-full flex-col border-l border-slate-800 bg-slate-900 shadow-2xl"
          style={{ width }}
        >
          <div className="flex items-center justify-between gap-3 border-b border-slate-800 px-5 py-4">
            <RadixDialog.Title className="truncate text-lg font-semibold text-white">
              {title}
            </RadixDialog.Title>
            <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
            <div className="flex items-center gap-2">
              {actions}
              <RadixDialog.Close
                aria-label="Close"
                className="rounded p-1 text-slate-400 hover:bg-slate-800 hover:text-white max-md:-m-2.5 max-md:p-3.5"
              >
                <X className="h-4 w-4" />
              </RadixDialog.Close>
            </div>
          </div>
          <div className="flex-1 overflow-y-auto px-5 py-4">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
