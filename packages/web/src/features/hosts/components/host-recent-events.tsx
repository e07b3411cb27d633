import { useQuery } from '@tanstack/react-query';
import { formatTime } from '@/lib/format';
import { hostEventsQueryOptions } from '@/lib/queries';

const SEVERITY_TONE: Record<string, string> = {
  critical: 'text-red-400',
  error: 'text-orange-400',
  warning: 'text-amber-300',
  info: 'text-sky-300',
  debug: 'text-slate-400',
};

/** The latest events of a host: a list (drawer) or a TIME / SEVERITY / DETAILS table (modal). */
export function HostRecentEvents({
  hostId,
  limit,
  table = false,
}: {
  hostId: string;
  limit: number;
  table?: boolean;
}) {
  const events = useQuery(hostEventsQueryOptions(hostId, limit)).data?.events ?? [];
  if (events.length === 0) return <p className="text-sm text-slate-500">No recent events</p>;
  if (!table) {
    return (
      <ul className="space-y-1.5 text-sm" data-testid="host-events">
        {events.map((e) => (
          <li key={e.id} className="flex gap-3">
            <span className="shrink-0 text-xs text-slate-500 tabular-nums">
              {formatTime(e.timestamp)}
            </span>
            <span className="truncate text-slate-200">{e.title}</span>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <table className="w-full text-left text-sm" data-testid="host-events">
      <thead className="text-xs text-slate-500 uppercase">
        <tr>
          <th className="py-1 font-medium">Time</th>
          <th className="py-1 font-medium">Severity</th>
          <th className="py-1 font-medium">Details</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id} className="border-t border-slate-800">
            <td className="py-1.5 pr-3 text-xs text-slate-400 tabular-nums">
              {formatTime(e.timestamp)}
            </td>
            <td className={`py-1.5 pr-3 text-xs uppercase ${SEVERITY_TONE[e.severity] ?? ''}`}>
              {e.severity}
            </td>
            <td className="py-1.5 text-slate-200">{e.title}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
