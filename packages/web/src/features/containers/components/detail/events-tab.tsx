import type { Container } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { EventBrowser } from '@/components/event-browser';
import { containerEventsQueryOptions } from '@/lib/queries';

const FETCH_LIMIT = 200;

/** The container's events: time range, severity and type filters, sort, paging, CSV. */
export function EventsTab({ container: c }: { container: Container }) {
  const events = useQuery(containerEventsQueryOptions(c.host_id, c.id, FETCH_LIMIT));
  return (
    <EventBrowser
      events={events.data?.events}
      isError={events.isError}
      fetchedAt={events.dataUpdatedAt}
      csvPrefix={c.name}
      hostColumn={false}
      testId="container-events"
      links={(e) =>
        e.host_id !== null && (
          <Link
            to={`/hosts?hostId=${e.host_id}`}
            className="shrink-0 text-xs text-sky-400 hover:underline"
          >
            {e.host_name ?? 'host'}
          </Link>
        )
      }
    />
  );
}
