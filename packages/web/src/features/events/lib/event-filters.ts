import {
  containerKey,
  containerKeyOf,
  eventCategorySchema,
  parseContainerScopeId,
  eventSeveritySchema,
  type EventCategory,
  type EventQuery,
  type EventSeverity,
  type EventSortOrder,
} from '@berth/contracts';

/** The time range options in hours; 0 is all time. */
export const TIME_RANGES = [
  { hours: 1, label: 'Last hour' },
  { hours: 6, label: 'Last 6 hours' },
  { hours: 12, label: 'Last 12 hours' },
  { hours: 24, label: 'Last 24 hours' },
  { hours: 48, label: 'Last 48 hours' },
  { hours: 168, label: 'Last 7 days' },
  { hours: 720, label: 'Last 30 days' },
  { hours: 0, label: 'All time' },
] as const;
export const DEFAULT_HOURS = 24;

/** The categories the filter offers. */
export const CATEGORIES: readonly EventCategory[] = [
  'container',
  'host',
  'system',
  'alert',
  'notification',
  'user',
  'network',
  'volume',
];
export const SEVERITIES: readonly EventSeverity[] = [
  'critical',
  'error',
  'warning',
  'info',
  'debug',
];

/** The page size before the window is measured, and after Reset. */
export const DEFAULT_LIMIT = 20;
const ROW_HEIGHT = 35;
const RESERVED_HEIGHT = 280;
const MIN_LIMIT = 15;
const MAX_LIMIT = 35;

/** As many 35 px rows as fit below 280 px of chrome, 15 to 35. */
export function limitForHeight(height: number): number {
  const rows = Math.floor((height - RESERVED_HEIGHT) / ROW_HEIGHT);
  return Math.max(MIN_LIMIT, Math.min(MAX_LIMIT, rows));
}

/** The Event Log's filters, kept in the query string under the API's own names. */
export interface EventFilters {
  hours: number;
  categories: EventCategory[];
  severities: EventSeverity[];
  hosts: string[];
  containers: string[];
  search: string;
}

export const NO_FILTERS: EventFilters = {
  hours: DEFAULT_HOURS,
  categories: [],
  severities: [],
  hosts: [],
  containers: [],
  search: '',
};

const unique = <T>(values: T[]) => [...new Set(values)];
const isCategory = (v: string): v is EventCategory => eventCategorySchema.safeParse(v).success;
const isSeverity = (v: string): v is EventSeverity => eventSeveritySchema.safeParse(v).success;

/** Reads the filters; unknown values are dropped, an unknown range falls back to 24 hours. */
export function readFilters(params: URLSearchParams): EventFilters {
  const hours = Number(params.get('hours') ?? DEFAULT_HOURS);
  return {
    hours: TIME_RANGES.some((r) => r.hours === hours) ? hours : DEFAULT_HOURS,
    categories: unique(params.getAll('category').filter(isCategory)),
    severities: unique(params.getAll('severity').filter(isSeverity)),
    hosts: unique(params.getAll('host_id').filter((v) => v !== '')),
    containers: unique(params.getAll('container_id').filter((v) => v !== '')),
    search: params.get('search') ?? '',
  };
}

/** Writes the filters back; defaults are left out so that a plain /events stays plain. */
export function writeFilters(params: URLSearchParams, f: EventFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ['hours', 'category', 'severity', 'host_id', 'container_id', 'search'])
    next.delete(key);
  if (f.hours !== DEFAULT_HOURS) next.set('hours', String(f.hours));
  for (const c of f.categories) next.append('category', c);
  for (const s of f.severities) next.append('severity', s);
  for (const h of f.hosts) next.append('host_id', h);
  for (const c of f.containers) next.append('container_id', c);
  if (f.search.trim() !== '') next.set('search', f.search.trim());
  return next;
}

export const hasFilters = (f: EventFilters) =>
  f.hours !== DEFAULT_HOURS ||
  f.categories.length > 0 ||
  f.severities.length > 0 ||
  f.hosts.length > 0 ||
  f.containers.length > 0 ||
  f.search.trim() !== '';

/** The GET /api/events parameters for the filters, order and page. */
export function eventQuery(
  f: EventFilters,
  sort: EventSortOrder,
  limit: number,
  offset: number,
): Partial<EventQuery> {
  const search = f.search.trim();
  return {
    hours: f.hours,
    category: f.categories,
    severity: f.severities,
    host_id: f.hosts,
    container_id: f.containers,
    ...(search === '' ? {} : { search }),
    sort_order: sort,
    limit,
    offset,
  };
}

/** The footer's 'Showing X-Y of Z events' and 'Page N of M'. */
export function pageInfo(offset: number, limit: number, total: number) {
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return {
    showing: `Showing ${first}-${last} of ${total} events`,
    page: `Page ${Math.floor(offset / limit) + 1} of ${Math.max(1, Math.ceil(total / limit))}`,
  };
}

/**
 * What `?scope_id=` (an alert's scope) selects: a host id, a container key (host_id:id), or
 * host_id:name of a container's settings key, resolved to the container that has that name now.
 */
export function scopeFilter(
  scopeId: string,
  hosts: readonly { id: string }[],
  containers: readonly { host_id: string; id: string; name: string }[],
): Pick<EventFilters, 'hosts' | 'containers'> {
  if (hosts.some((h) => h.id === scopeId)) return { hosts: [scopeId], containers: [] };
  const scope = parseContainerScopeId(scopeId);
  if (scope === null) return { hosts: [scopeId], containers: [] };
  const { hostId, rest } = scope;
  const asKey = containerKey(hostId, rest);
  const match =
    containers.find((c) => containerKeyOf(c) === asKey) ??
    containers.find((c) => c.host_id === hostId && c.name === rest);
  return { hosts: [], containers: [match ? containerKeyOf(match) : scopeId] };
}
