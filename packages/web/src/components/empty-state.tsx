import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A centred message for a screen or panel with nothing to show yet. */
export function EmptyState({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center justify-center rounded-xl border border-dashed border-slate-800 px-6 py-16 text-center">
      <Icon className="mb-3 h-10 w-10 text-slate-600" aria-hidden />
      <p className="text-base font-medium text-slate-200">{title}</p>
      {children !== undefined && <div className="mt-1 text-sm text-slate-400">{children}</div>}
    </div>
  );
}
