import type { Host } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { EventBrowser } from '@/components/event-browser';
import { useContainerPanels } from '@/lib/container-panels';
import { containerKeyOf } from '@berth/contracts';
import { usePreferences } from '@/lib/preferences';
import { containersQueryOptions, hostEventsQueryOptions } from '@/lib/queries';

/** The host events view fetches 200. */
const FETCH_LIMIT = 200;

/**
 * The host modal's Events tab: the host's 200 latest events, filtered,
 * sorted and paged like a container's, with the Host column in the CSV. A container that still
 * exists opens its panel.
 */
export function HostEventsTab({ host }: { host: Host }) {
  const events = useQuery(hostEventsQueryOptions(host.id, FETCH_LIMIT));
  const existing = useQuery({
    ...containersQueryOptions(),
    select: ({ containers }) => new Set(containers.map(containerKeyOf)),
  }).data;
  const simplified = usePreferences().data?.simplified_workflow ?? true;
  const { openContainer } = useContainerPanels();
  return (
    <EventBrowser
      events={events.data?.events}
      isError={events.isError}
      fetchedAt={events.dataUpdatedAt}
      csvPrefix={host.name}
      hostColumn
      testId="host-events-log"
      links={(e) => {
        if (e.container_id === null) return null;
        const name = e.container_name ?? e.container_id;
        if (existing?.has(e.container_id) !== true)
          return <span className="shrink-0 text-xs text-slate-500">{name}</span>;
        const key = e.container_id;
        return (
          <button
            type="button"
            className="shrink-0 text-xs text-sky-400 hover:underline"
            onClick={() => openContainer(key, { view: simplified ? 'detail' : 'drawer' })}
          >
            {name}
          </button>
        );
      }}
    />
  );
}
