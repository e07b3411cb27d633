import type { BerthEvent } from '@berth/contracts';
import { formatTime } from '@/lib/format';

export const SEVERITY_TONE: Record<string, string> = {
  critical: 'text-red-400',
  error: 'text-orange-400',
  warning: 'text-amber-300',
  info: 'text-sky-300',
  debug: 'text-slate-400',
};

/** Who causes events that no person did: Berth itself and the engine. */
const NOT_PEOPLE = new Set(['system', 'engine', 'auto-update']);

/** `by <user>` on an event a person caused (an API key's use included); nothing otherwise. */
export function ByUser({ event }: { event: BerthEvent }) {
  const by = event.triggered_by;
  if (by === null || by === '' || NOT_PEOPLE.has(by)) return null;
  return (
    <span className="shrink-0 truncate text-xs text-slate-500" data-testid="event-by" title={by}>
      by {by}
    </span>
  );
}

/** A short list of events, newest first, as the drawers show them. */
export function EventList({ events, testId }: { events: BerthEvent[]; testId: string }) {
  if (events.length === 0) return <p className="text-sm text-slate-500">No recent events</p>;
  return (
    <ul className="space-y-1.5 text-sm" data-testid={testId}>
      {events.map((e) => (
        <li key={e.id} className="flex gap-3">
          <span className="shrink-0 text-xs text-slate-500 tabular-nums">
            {formatTime(e.timestamp)}
          </span>
          <span className={`w-14 shrink-0 text-xs uppercase ${SEVERITY_TONE[e.severity] ?? ''}`}>
            {e.severity}
          </span>
          <span className="min-w-0 truncate text-slate-200" title={e.message ?? e.title}>
            {e.title}
          </span>
          <ByUser event={e} />
        </li>
      ))}
    </ul>
  );
}
