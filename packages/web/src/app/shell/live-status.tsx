import { cn } from '@/lib/cn';
import { useLiveStatus } from '@/lib/live/live-provider';

/** 'Real-time updates' while the live channel is connected, 'Reconnecting...' otherwise. */
export function LiveStatusIndicator({ collapsed }: { collapsed: boolean }) {
  const connected = useLiveStatus() === 'connected';
  const text = connected ? 'Real-time updates' : 'Reconnecting...';
  return (
    <div
      data-testid="live-status"
      title={text}
      className="flex items-center gap-2 px-3 py-2 text-xs text-slate-400"
    >
      <span
        className={cn(
          'h-2 w-2 shrink-0 rounded-full',
          connected ? 'bg-emerald-400' : 'animate-pulse bg-amber-400',
        )}
        aria-hidden
      />
      <span className={cn(collapsed && 'sr-only')}>{text}</span>
    </div>
  );
}
