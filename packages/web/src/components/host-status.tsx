import type { HostStatus } from '@berth/contracts';
import { cn } from '@/lib/cn';

const LOOK: Record<HostStatus, { dot: string; label: string }> = {
  online: { dot: 'bg-emerald-400', label: 'Online' },
  degraded: { dot: 'bg-amber-400', label: 'Degraded' },
  offline: { dot: 'bg-slate-500', label: 'Offline' },
  error: { dot: 'bg-red-500', label: 'Error' },
};

/** A host's status dot; an unknown status reads as offline. */
export function StatusDot({ status, className }: { status: HostStatus; className?: string }) {
  const look = LOOK[status];
  return (
    <span
      className={cn('h-2.5 w-2.5 shrink-0 rounded-full', look.dot, className)}
      role="img"
      aria-label={look.label}
    />
  );
}

/** Status dot and word. */
export function HostStatusBadge({ status }: { status: HostStatus }) {
  return (
    <span className="inline-flex items-center gap-2 text-sm text-slate-300">
      <StatusDot status={status} />
      {LOOK[status].label}
    </span>
  );
}

/** Up to `max` tags, then '+N'. */
export function TagChips({ tags, max }: { tags: readonly string[]; max: number }) {
  if (tags.length === 0) return null;
  return (
    <div className="mt-1 flex flex-wrap gap-1">
      {tags.slice(0, max).map((t) => (
        <span key={t} className="rounded bg-slate-800 px-1.5 py-0.5 text-xs text-slate-300">
          {t}
        </span>
      ))}
      {tags.length > max && <span className="text-xs text-slate-500">+{tags.length - max}</span>}
    </div>
  );
}
