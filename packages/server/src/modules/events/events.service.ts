import type {
  BerthEvent,
  EventCategory,
  EventQuery,
  EventSeverity,
  EventsResponse,
} from '@berth/contracts';
import type { LiveHub } from '../../platform/live-hub.js';
import { EventSearch } from './events-search.js';
import type { EventsStore } from './events.store.js';
import { createSearchIndex, PARTITION_EVENTS } from './search-index.js';

/** What a module says happened; ids, names and states are optional. */
export interface EventInput {
  severity: EventSeverity;
  category: EventCategory;
  event_type: string;
  title: string;
  message?: string | null;
  host_id?: string | null;
  host_name?: string | null;
  /** Composite `host_id:container_id`. */
  container_id?: string | null;
  container_name?: string | null;
  old_state?: string | null;
  new_state?: string | null;
  correlation_id?: string | null;
  /** Username for user actions, 'system' or 'engine' otherwise. */
  triggered_by?: string | null;
  timestamp?: string;
}

/** The event store: records what happened (engine, Berth, users) and answers the log's queries. */
export class EventsService {
  private readonly search;
  private readonly index;
  private readonly partitionEvents: number;
  /** The event id from which the index's newest partition is full; null: not read yet. */
  private rollAt: number | null = null;

  constructor(
    private readonly store: EventsStore,
    private readonly hub: LiveHub,
    /** `partitionEvents`: events per partition of the search index (tests use a few). */
    options: { partitionEvents?: number } = {},
  ) {
    this.search = new EventSearch(store.db);
    this.index = createSearchIndex(store.db);
    this.partitionEvents = options.partitionEvents ?? PARTITION_EVENTS;
  }

  /** Stores the event and pushes it to browsers as `new_event`. */
  async record(input: EventInput): Promise<BerthEvent> {
    const event: Omit<BerthEvent, 'id'> = {
      timestamp: input.timestamp ?? new Date().toISOString(),
      severity: input.severity,
      category: input.category,
      event_type: input.event_type,
      title: input.title,
      message: input.message ?? null,
      host_id: input.host_id ?? null,
      host_name: input.host_name ?? null,
      container_id: input.container_id ?? null,
      container_name: input.container_name ?? null,
      old_state: input.old_state ?? null,
      new_state: input.new_state ?? null,
      correlation_id: input.correlation_id ?? null,
      triggered_by: input.triggered_by ?? null,
    };
    const id = await this.store.insert(event);
    if (this.rollAt === null || id >= this.rollAt) await this.rollIndexIfFull().catch(() => false);
    const stored = { ...event, id };
    this.hub.publish({ type: 'new_event', data: stored });
    return stored;
  }

  async query(q: EventQuery): Promise<EventsResponse> {
    const search = q.search?.trim() ?? '';
    const now = Date.now();
    const { rows, total } =
      search === '' ? await this.search.page(q, now) : await this.search.run(q, search, now);
    return { events: rows, total_count: total, limit: q.limit, offset: q.offset };
  }

  /** How many events the log holds (the metrics export's event-store size). */
  storedCount(): Promise<number> {
    return this.store.count();
  }

  /** Deletes at most `limit` events older than `cutoff` (ISO); answers how many went. */
  pruneOlderThan(cutoff: string, limit: number): Promise<number> {
    return this.store.pruneOlderThan(cutoff, limit);
  }

  /**
   * Starts a new partition of the search index once the newest holds its share of events
   * (checked as events are stored; retention checks too, for events stored by other means).
   * A failure leaves `rollAt` as it was, so the next event tries again.
   */
  async rollIndexIfFull(): Promise<boolean> {
    const rolled = await this.index.rollIfFull(this.partitionEvents);
    const [newest] = await this.index.partitions();
    this.rollAt = (newest?.firstId ?? 0) + this.partitionEvents;
    return rolled;
  }

  /** Drops one partition of the search index whose events have all gone; false: none. */
  dropEmptyIndexPartition(): Promise<boolean> {
    return this.index.dropOneEmpty();
  }

  /** Stops the search workers. */
  close(): Promise<void> {
    return this.search.close();
  }
}
