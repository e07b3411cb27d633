import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';

/**
 * The phone's navigation: the sidebar sliding in from the left edge over the screen, on Radix
 * Dialog (focus kept inside, Escape and a tap outside close it). Not the shared Sheet: that one
 * opens from the right with a titled header of its own, where this shows the sidebar's header.
 */
export function NavDrawer({
  open,
  onOpenChange,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <RadixDialog.Content
          aria-describedby={undefined}
          data-testid="nav-drawer"
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col border-r border-slate-800 bg-slate-900 pt-[env(safe-area-inset-top)] pb-[env(safe-area-inset-bottom)] shadow-2xl focus:outline-none"
        >
          <RadixDialog.Title className="sr-only">Navigation</RadixDialog.Title>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
