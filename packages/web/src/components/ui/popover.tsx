import { Popover as Radix } from 'radix-ui';
import type { ReactNode } from 'react';

/** A floating panel anchored to its trigger, with our look. */
export function Popover({ trigger, children }: { trigger: ReactNode; children: ReactNode }) {
  return (
    <Radix.Root>
      <Radix.Trigger asChild>{trigger}</Radix.Trigger>
      <Radix.Portal>
        <Radix.Content
          align="end"
          sideOffset={6}
          className="z-50 w-72 rounded-lg border border-slate-700 bg-slate-900 p-3 shadow-xl"
        >
          {children}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}
