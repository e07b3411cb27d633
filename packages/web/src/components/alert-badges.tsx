import type { Alert } from '@berth/contracts';
import { ALERT_SEVERITY_TONE } from '@/lib/alerts';
import { cn } from '@/lib/cn';

const STATE_TONE: Record<Alert['state'], string> = {
  open: 'bg-red-500/15 text-red-200',
  snoozed: 'bg-violet-500/20 text-violet-200',
  resolved: 'bg-emerald-500/15 text-emerald-200',
};

export function SeverityBadge({ severity }: { severity: Alert['severity'] }) {
  return (
    <span
      className={cn(
        'inline-block rounded px-1.5 py-0.5 text-xs font-medium capitalize',
        ALERT_SEVERITY_TONE[severity],
      )}
    >
      {severity}
    </span>
  );
}

export function AlertStateBadge({ state }: { state: Alert['state'] }) {
  return (
    <span
      className={cn('inline-block rounded px-1.5 py-0.5 text-xs capitalize', STATE_TONE[state])}
    >
      {state}
    </span>
  );
}

/** What an alert watches, as one line: the container and its host, or the host. */
export function alertScopeLabel(a: Alert): string {
  if (a.scope_type === 'container')
    return `${a.container_name ?? a.scope_id} on ${a.host_name ?? a.host_id ?? 'unknown host'}`;
  return a.host_name ?? a.scope_id;
}
