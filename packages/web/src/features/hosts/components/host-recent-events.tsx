import { useQuery } from '@tanstack/react-query';
import { ByUser, EventList, SEVERITY_TONE } from '@/components/event-list';
import { formatTime } from '@/lib/format';
import { hostEventsQueryOptions } from '@/lib/queries';

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
  if (!table || events.length === 0) return <EventList events={events} testId="host-events" />;
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
            <td className="py-1.5 text-slate-200">
              {e.title} <ByUser event={e} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
