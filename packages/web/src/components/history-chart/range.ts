/** A span of time in Unix seconds, `from` before `to`. */
export interface TimeWindow {
  from: number;
  to: number;
}

/**
 * The range picker's presets. `tick`: how often a preset's window moves on (seconds), about
 * one point of what the server answers, so a refresh brings a new point. `step`: asked for
 * where the server's own choice is worse: 6 h without a step is 360 points of the 1 min tier,
 * which lags the roll-up by minutes (and is empty for a new container); 30 s points merged from
 * the 10 s tier (720) are current. Without a step the server picks the tier.
 */
export const RANGE_PRESETS = [
  { id: '1h', label: '1 h', seconds: 3600, tick: 10 },
  { id: '6h', label: '6 h', seconds: 6 * 3600, tick: 30, step: 30 },
  { id: '24h', label: '24 h', seconds: 24 * 3600, tick: 60 },
  { id: '7d', label: '7 d', seconds: 7 * 86_400, tick: 300 },
  { id: '30d', label: '30 d', seconds: 30 * 86_400, tick: 900 },
  { id: '90d', label: '90 d', seconds: 90 * 86_400, tick: 900 },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number]['id'];

export type RangeChoice =
  { kind: 'preset'; preset: RangePreset } | ({ kind: 'custom' } & TimeWindow);

export const presetOf = (id: RangePreset) =>
  RANGE_PRESETS.find((p) => p.id === id) ?? RANGE_PRESETS[0];

/** The step a choice asks the server for, if it asks one. */
export const stepOf = (choice: RangeChoice): number | undefined => {
  if (choice.kind === 'custom') return undefined;
  const p = presetOf(choice.preset);
  return 'step' in p ? p.step : undefined;
};

/** Seconds between refreshes of a choice; null: a fixed window never moves. */
export const tickOf = (choice: RangeChoice): number | null =>
  choice.kind === 'preset' ? presetOf(choice.preset).tick : null;

/**
 * The window a choice shows at `nowMs`. A preset ends at now rounded down to its tick, so
 * every render within one tick asks the same question (one cache entry, not one per render).
 */
export function windowOf(choice: RangeChoice, nowMs: number): TimeWindow {
  if (choice.kind === 'custom') return { from: choice.from, to: choice.to };
  const p = presetOf(choice.preset);
  const to = Math.floor(nowMs / 1000 / p.tick) * p.tick;
  return { from: to - p.seconds, to };
}

/** The narrowest zoom: two minutes (a dozen 10 s points). */
export const MIN_ZOOM_SECONDS = 120;

/**
 * The window a drag selected, from the chart's x values at its two edges: whole seconds,
 * inside the window it was dragged on, and at least MIN_ZOOM_SECONDS wide (a narrower drag
 * widens around its middle). Null when the drag selected nothing.
 */
export function zoomWindow(within: TimeWindow, a: number, b: number): TimeWindow | null {
  if (!Number.isFinite(a) || !Number.isFinite(b) || a === b) return null;
  let from = Math.max(within.from, Math.floor(Math.min(a, b)));
  let to = Math.min(within.to, Math.ceil(Math.max(a, b)));
  const span = within.to - within.from;
  if (span <= MIN_ZOOM_SECONDS) return null;
  if (to - from < MIN_ZOOM_SECONDS) {
    const middle = (from + to) / 2;
    from = Math.round(middle - MIN_ZOOM_SECONDS / 2);
    to = from + MIN_ZOOM_SECONDS;
    // Pushed back inside the window it came from.
    if (from < within.from) [from, to] = [within.from, within.from + MIN_ZOOM_SECONDS];
    if (to > within.to) [from, to] = [within.to - MIN_ZOOM_SECONDS, within.to];
  }
  return { from, to };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a `datetime-local` input's value (local time, minutes). */
export function toLocalInput(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The custom range's two inputs as a window, or what is wrong with them. Only what the
 * browser can tell is checked here; whether the tiers keep that far back is the server's to
 * say (its 400 names the field and is shown as it is).
 */
export function parseCustomRange(
  fromText: string,
  toText: string,
): { window: TimeWindow } | { error: string } {
  // A datetime-local value has no offset: Date reads it as local time.
  const from = Date.parse(fromText);
  const to = Date.parse(toText);
  if (fromText === '' || Number.isNaN(from)) return { error: 'From: enter a date and time' };
  if (toText === '' || Number.isNaN(to)) return { error: 'To: enter a date and time' };
  if (from >= to) return { error: 'From must be before To' };
  return { window: { from: Math.floor(from / 1000), to: Math.floor(to / 1000) } };
}

const SHORT: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
};

/** "Dec 4, 14:05 – 14:35" (the date once when both ends fall on the same day). */
export function describeWindow(w: TimeWindow): string {
  const a = new Date(w.from * 1000);
  const b = new Date(w.to * 1000);
  const sameDay = a.toDateString() === b.toDateString();
  const end = sameDay
    ? b.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12: false })
    : b.toLocaleString(undefined, SHORT);
  return `${a.toLocaleString(undefined, SHORT)} – ${end}`;
}
