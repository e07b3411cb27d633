import type { HostStatus } from '@berth/contracts';
import { cn } from '@/lib/cn';

const LOOK: Record<HostStatus, { dot: string; label: string }> = {
  online: { dot: 'bg-emerald-400', label: 'Online' },
  degraded: { dot: 'bg-amber-400', label: 'Degraded' },
  offline: { dot: 'bg-slate-500', label: 'Offline' },
  error: { dot: 'bg-red-500', label: 'Error' },
};

/** Status dot and word; an unknown status reads as offline. */
export function HostStatusBadge({ status }: { status: HostStatus }) {
  const look = LOOK[status];
  return (
    <span className="inline-flex items-center gap-2 text-sm text-slate-300">
      <span className={cn('h-2.5 w-2.5 rounded-full', look.dot)} aria-hidden />
      {look.label}
    </span>
  );
}
