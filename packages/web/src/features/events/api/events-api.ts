import {
  eventSortOrderBodySchema,
  eventsResponseSchema,
  MAX_EVENTS_LIMIT,
  type BerthEvent,
  type EventQuery,
  type EventSortOrder,
  type Preferences,
} from '@berth/contracts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import { usePreferences } from '@/lib/preferences';
import { preferencesQueryOptions } from '@/lib/queries';

/** The Event Log refetches every 30 s. */
const REFETCH_MS = 30_000;

type Params = Partial<EventQuery>;

/**
 * A failed call throws 'Failed to fetch events'; `detail` keeps what the server
 * said about a request it refused (a search it cannot run, say).
 */
export class EventsFetchError extends Error {
  constructor(readonly detail: string | null) {
    super('Failed to fetch events');
    this.name = 'EventsFetchError';
  }
}

async function fetchEvents(params: Params) {
  try {
    return await api('/events', eventsResponseSchema, { params });
  } catch (err) {
    throw new EventsFetchError(err instanceof ApiError && err.status === 400 ? err.message : null);
  }
}

/**
 * One page of the Event Log. Its own root key: the page refreshes on new events at its own
 * pace (see use-live-refresh) rather than on every new_event message of a burst.
 */
export const eventLogQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: ['event-log', params],
    queryFn: () => fetchEvents(params),
    refetchInterval: REFETCH_MS,
    placeholderData: keepPreviousData,
  });

export const eventLogRootKey = () => eventLogQueryOptions({}).queryKey.slice(0, 1);

/** The most events one CSV export collects. */
export const MAX_EXPORT = 10_000;

/**
 * Every event matching the filters (up to MAX_EXPORT), for the CSV. The pages are read up to
 * the moment the export started, so events arriving meanwhile cannot shift them.
 */
export async function fetchAllEvents(
  params: Params,
): Promise<{ events: BerthEvent[]; total: number }> {
  const end_date = new Date().toISOString();
  const events: BerthEvent[] = [];
  let total: number;
  do {
    const page = await fetchEvents({
      ...params,
      end_date,
      limit: Math.min(MAX_EVENTS_LIMIT, MAX_EXPORT - events.length),
      offset: events.length,
    });
    total = page.total_count;
    events.push(...page.events);
    if (page.events.length === 0) break;
  } while (events.length < Math.min(total, MAX_EXPORT));
  return { events, total };
}

/**
 * The saved sort order (POST /user/event-sort-order), read from the preferences
 * the shell has loaded; the choice shows at once and comes back if saving fails.
 */
export function useEventSortOrder() {
  const prefs = usePreferences();
  const queryClient = useQueryClient();
  const key = preferencesQueryOptions().queryKey;
  const save = useMutation({
    mutationFn: (sort_order: EventSortOrder) =>
      api('/user/event-sort-order', eventSortOrderBodySchema, {
        method: 'POST',
        body: { sort_order },
      }),
    onMutate: async (sort_order) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Preferences>(key);
      if (previous !== undefined)
        queryClient.setQueryData<Preferences>(key, { ...previous, event_sort_order: sort_order });
      return { previous };
    },
    onError: (err, _order, context) => {
      console.error('Saving the event sort order failed', err);
      if (context?.previous !== undefined) queryClient.setQueryData(key, context.previous);
    },
  });
  return {
    order: prefs.data?.event_sort_order ?? 'desc',
    /** False until the saved order is known, so the first fetch uses it. */
    ready: !prefs.isPending,
    setOrder: (order: EventSortOrder) => save.mutate(order),
  };
}
