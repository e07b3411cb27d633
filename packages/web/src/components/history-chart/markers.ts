import type { BerthEvent, EventCategory } from '@berth/contracts';
import type { TimeWindow } from './range';

/** What a marker on the time axis stands for. */
export type MarkerKind = 'restart' | 'update' | 'health' | 'alert' | 'state';

export interface Marker {
  id: number;
  /** Unix seconds. */
  t: number;
  kind: MarkerKind;
  title: string;
  /** An error, a crash, an alert raised: drawn stronger than the rest. */
  severe: boolean;
}

export const MARKER_LABELS: Record<MarkerKind, string> = {
  restart: 'Restart',
  update: 'Update',
  health: 'Health',
  alert: 'Alert',
  state: 'State change',
};

/** Each kind's colour (Tailwind 400 shades; the light theme takes their 700). */
export const MARKER_COLORS: Record<MarkerKind, string> = {
  restart: '#fb923c',
  update: '#38bdf8',
  health: '#a3e635',
  alert: '#f472b6',
  state: '#a78bfa',
};

const RESTARTS = new Set(['restarted', 'auto_restart', 'auto_restart_failed']);
const UPDATES = new Set([
  'update_completed',
  'update_failed',
  'update_interrupted',
  'rollback_completed',
  'rollback_failed',
]);
// A stop's kill comes with its die; create, rename and settings changes do not move a chart.
const STATES = new Set(['started', 'stopped', 'died', 'oom']);

/**
 * The marker an event of the log stands for, or null for events a chart does not mark. Alerts
 * are logged as raised, resolved, acknowledged…: only raised and resolved move the picture.
 */
export function markerKindOf(e: Pick<BerthEvent, 'category' | 'event_type'>): MarkerKind | null {
  if (e.category === 'alert')
    return e.event_type === 'alert_raised' || e.event_type === 'alert_resolved' ? 'alert' : null;
  if (e.category === 'health_check' || e.event_type === 'health_status') return 'health';
  if (e.category === 'host') return e.event_type.includes('connection') ? 'state' : null;
  if (e.category !== 'container') return null;
  if (RESTARTS.has(e.event_type)) return 'restart';
  if (UPDATES.has(e.event_type)) return 'update';
  return STATES.has(e.event_type) ? 'state' : null;
}

/** Whose markers a chart shows: a host's, or one container's (by name, as its history is kept). */
export interface MarkerTarget {
  hostId: string;
  /** Null: the host's own (its alerts and connection changes). */
  containerName: string | null;
}

/** The event categories a target's markers come from. */
export const markerCategories = (target: MarkerTarget): EventCategory[] =>
  target.containerName === null ? ['alert', 'host'] : ['container', 'health_check', 'alert'];

/** The most events a chart asks for; the newest are kept when a range holds more. */
export const MARKER_LIMIT = 1000;

/** The Event Log query for a target's markers over a window. */
export function markerQuery(target: MarkerTarget, w: TimeWindow) {
  return {
    host_id: [target.hostId],
    category: markerCategories(target),
    // The log's name filter matches parts of names ("web" finds "web-2"): narrowed again below.
    ...(target.containerName === null ? {} : { container_name: target.containerName }),
    start_date: new Date(w.from * 1000).toISOString(),
    end_date: new Date(w.to * 1000).toISOString(),
    limit: MARKER_LIMIT,
  };
}

/**
 * The target's markers among the events, oldest first, inside the window. A container's are
 * the events carrying its exact name (a recreated container keeps its markers, as it keeps its
 * history); a host's are the events of no container.
 */
export function markersOf(
  events: readonly BerthEvent[],
  target: MarkerTarget,
  w: TimeWindow,
): Marker[] {
  const out: Marker[] = [];
  for (const e of events) {
    if (e.host_id !== target.hostId || e.container_name !== target.containerName) continue;
    const kind = markerKindOf(e);
    if (kind === null) continue;
    const t = Date.parse(e.timestamp) / 1000;
    if (!(t >= w.from && t <= w.to)) continue;
    const severe =
      e.severity === 'critical' || e.severity === 'error' || e.event_type === 'alert_raised';
    out.push({ id: e.id, t, kind, title: e.title, severe });
  }
  return out.sort((a, b) => a.t - b.t || a.id - b.id);
}

/**
 * The marker nearest to time `t` within `tolerance` seconds (what a hover at `t` points at),
 * or null. `markers` oldest first.
 */
export function nearestMarker(
  markers: readonly Marker[],
  t: number,
  tolerance: number,
): Marker | null {
  let best: Marker | null = null;
  for (const m of markers) {
    const d = Math.abs(m.t - t);
    if (d <= tolerance && (best === null || d < Math.abs(best.t - t))) best = m;
  }
  return best;
}
