import { Check } from 'lucide-react';
import { DropdownMenu as Radix } from 'radix-ui';
import { useState, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

export const DropdownMenu = Radix.Root;
export const DropdownMenuTrigger = Radix.Trigger;

export function DropdownMenuContent({
  children,
  className,
  side = 'top',
}: {
  children: ReactNode;
  className?: string;
  side?: 'top' | 'bottom' | 'right';
}) {
  return (
    <Radix.Portal>
      <Radix.Content
        side={side}
        sideOffset={6}
        align="start"
        className={cn(
          'z-50 min-w-48 rounded-lg border border-slate-700 bg-slate-900 p-1 shadow-xl',
          className,
        )}
      >
        {children}
      </Radix.Content>
    </Radix.Portal>
  );
}

export function DropdownMenuItem({
  children,
  onSelect,
  disabled = false,
}: {
  children: ReactNode;
  onSelect: () => void;
  disabled?: boolean;
}) {
  return (
    <Radix.Item
      onSelect={onSelect}
      disabled={disabled}
      className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-200 outline-none data-[highlighted]:bg-slate-800 data-[highlighted]:text-white data-[disabled]:cursor-not-allowed data-[disabled]:opacity-40 max-md:min-h-11"
    >
      {children}
    </Radix.Item>
  );
}

export function DropdownMenuSeparator() {
  return <Radix.Separator className="my-1 h-px bg-slate-800" />;
}

/**
 * A menu button that mounts its Radix menu on first use: a dashboard shows hundreds of
 * these, and an unopened menu should cost no more than a button.
 */
export function ActionMenu({
  label,
  icon,
  className,
  side = 'bottom',
  children,
}: {
  label: string;
  icon: ReactNode;
  className?: string;
  side?: 'top' | 'bottom' | 'right';
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const start = () => {
    setUsed(true);
    setOpen(true);
  };
  if (!used) {
    return (
      <button
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={false}
        className={className}
        onClick={(e) => e.stopPropagation()}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          e.preventDefault();
          start();
        }}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' && e.key !== ' ' && e.key !== 'ArrowDown') return;
          e.preventDefault();
          start();
        }}
      >
        {icon}
      </button>
    );
  }
  return (
    <Radix.Root open={open} onOpenChange={setOpen}>
      <Radix.Trigger aria-label={label} className={className} onClick={(e) => e.stopPropagation()}>
        {icon}
      </Radix.Trigger>
      <DropdownMenuContent side={side}>{children}</DropdownMenuContent>
    </Radix.Root>
  );
}

/** A menu entry with a check mark that keeps the menu open, for filters. */
export function DropdownMenuCheckboxItem({
  children,
  checked,
  onCheckedChange,
}: {
  children: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  return (
    <Radix.CheckboxItem
      checked={checked}
      onCheckedChange={onCheckedChange}
      onSelect={(e) => e.preventDefault()}
      className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-200 outline-none data-[highlighted]:bg-slate-800 max-md:min-h-11"
    >
      <span className="flex h-4 w-4 items-center justify-center rounded border border-slate-600">
        <Radix.ItemIndicator>
          <Check className="h-3 w-3" />
        </Radix.ItemIndicator>
      </span>
      {children}
    </Radix.CheckboxItem>
  );
}
