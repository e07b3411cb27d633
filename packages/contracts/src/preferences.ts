import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

export const viewModeSchema = lazySchema(() => z.enum(['compact', 'standard', 'expanded']));
export type ViewMode = z.infer<typeof viewModeSchema>;

export const groupBySchema = lazySchema(() => z.enum(['none', 'tag']));
export type GroupBy = z.infer<typeof groupBySchema>;

export const eventSortOrderSchema = lazySchema(() => z.enum(['desc', 'asc']));
export type EventSortOrder = z.infer<typeof eventSortOrderSchema>;

/** Per-host sort of container lists in cards and drawers. */
export const hostContainerSortSchema = lazySchema(() =>
  z.enum(['state', 'name', 'cpu', 'memory', 'start_time']),
);
export type HostContainerSort = z.infer<typeof hostContainerSortSchema>;

const id = lazySchema(() => z.string().min(1).max(200));

/** TanStack Table sorting state. */
export const tableSortSchema = lazySchema(() =>
  z.array(z.strictObject({ id, desc: z.boolean() })).max(20),
);
export type TableSort = z.infer<typeof tableSortSchema>;

/** Where a grid item sits and how small it may get, in grid units (widgets and host cards). */
const gridBox = () => {
  const units = (min: number) => z.number().int().min(min);
  return {
    x: units(0),
    y: units(0),
    w: units(1),
    h: units(1),
    minW: units(1).optional(),
    minH: units(1).optional(),
  };
};

export const dashboardWidgetSchema = lazySchema(() =>
  z.strictObject({
    id,
    type: z.string().min(1).max(50),
    title: z.string().max(100),
    ...gridBox(),
  }),
);
export type DashboardWidget = z.infer<typeof dashboardWidgetSchema>;

/** One react-grid-layout entry; `i` is the host id. */
export const gridItemSchema = lazySchema(() =>
  z.strictObject({
    i: id,
    ...gridBox(),
    maxW: z.number().int().min(1).optional(),
    maxH: z.number().int().min(1).optional(),
  }),
);
export type GridItem = z.infer<typeof gridItemSchema>;

export const dashboardPreferencesSchema = lazySchema(() =>
  z.strictObject({
    optimizedLoading: z.boolean().optional(),
    showKpiBar: z.boolean().optional(),
    showStatsWidgets: z.boolean().optional(),
    hostCardLayout: z.array(gridItemSchema).max(1000).optional(),
    hostCardLayoutStandard: z.array(gridItemSchema).max(1000).optional(),
    tagGroupOrder: z.array(z.string().max(100)).max(1000).optional(),
    /** Keyed by layout name per tag and mode; compact groups keep a host order instead. */
    groupLayouts: z
      .record(
        z.string().max(200),
        z.union([z.array(gridItemSchema).max(1000), z.array(id).max(1000)]),
      )
      .optional(),
    compactHostOrder: z.array(id).max(1000).optional(),
    /** Hosts whose cards draw the last 24 h from metrics history instead of live sparklines. */
    historyCards: z.array(id).max(1000).optional(),
  }),
);
export type DashboardPreferences = z.infer<typeof dashboardPreferencesSchema>;

export const preferencesSchema = lazySchema(() =>
  z.object({
    sidebar_collapsed: z.boolean(),
    dashboard_layout_v2: z.object({ widgets: z.array(dashboardWidgetSchema).max(50) }).nullable(),
    simplified_workflow: z.boolean(),
    hostContainerSorts: z.record(id, hostContainerSortSchema),
    collapsed_groups: z.array(z.string().max(100)).max(1000),
    group_by: groupBySchema,
    host_table_sort: tableSortSchema,
    view_mode: viewModeSchema,
    event_sort_order: eventSortOrderSchema,
    dashboard: dashboardPreferencesSchema,
    container_table_sort: tableSortSchema,
    container_table_column_visibility: z.record(id, z.boolean()),
    container_table_column_order: z.array(id).max(200),
  }),
);
export type Preferences = z.infer<typeof preferencesSchema>;

/** PATCH /api/v2/user/preferences: any subset; `dashboard` is merged key by key. */
export const preferencesPatchSchema = lazySchema(() =>
  z.strictObject(preferencesSchema.shape).partial(),
);
export type PreferencesPatch = z.infer<typeof preferencesPatchSchema>;

/** Serialized preferences may not exceed this many bytes (a patch that would is refused). */
export const MAX_PREFERENCES_BYTES = 256 * 1024;

export const DEFAULT_PREFERENCES: Preferences = {
  sidebar_collapsed: false,
  dashboard_layout_v2: null,
  simplified_workflow: true,
  hostContainerSorts: {},
  collapsed_groups: [],
  group_by: 'none',
  host_table_sort: [],
  view_mode: 'standard',
  event_sort_order: 'desc',
  dashboard: { optimizedLoading: true, showKpiBar: true, showStatsWidgets: false },
  container_table_sort: [],
  container_table_column_visibility: {},
  container_table_column_order: [],
};

export const viewModeBodySchema = lazySchema(() => z.strictObject({ view_mode: viewModeSchema }));
export type ViewModeBody = z.infer<typeof viewModeBodySchema>;

export const eventSortOrderBodySchema = lazySchema(() =>
  z.strictObject({ sort_order: eventSortOrderSchema }),
);
export type EventSortOrderBody = z.infer<typeof eventSortOrderBodySchema>;
