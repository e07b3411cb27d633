import type { GridItem } from '@berth/contracts';

export type CardMode = 'standard' | 'expanded';

/** Cards per row, card size and size limits of each mode (row height 36). */
const CARD_GRID: Record<CardMode, { perRow: number; w: number; h: number; maxH: number }> = {
  expanded: { perRow: 3, w: 4, h: 10, maxH: 30 },
  standard: { perRow: 4, w: 3, h: 8, maxH: 20 },
};

export const CARD_ROW_HEIGHT = 36;
/** Pixels between grid items, across and down. */
export const GRID_MARGIN = 12;

/** A card's place with its limits filled in, as the grid needs them. */
export interface CardLayoutItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  minW: number;
  minH: number;
  maxW: number;
  maxH: number;
}
export const GRID_COLUMNS = 12;

/** The default card layout for these hosts, in their order. */
export function defaultHostLayout(hostIds: readonly string[], mode: CardMode): CardLayoutItem[] {
  const g = CARD_GRID[mode];
  return hostIds.map((id, index) => ({
    i: id,
    x: (index % g.perRow) * g.w,
    y: Math.floor(index / g.perRow) * g.h,
    w: g.w,
    h: g.h,
    minW: 3,
    minH: 6,
    maxW: 12,
    maxH: g.maxH,
  }));
}

/** True when `saved` lists exactly these hosts (same count, same ids). */
export function matchesIds(saved: readonly string[] | undefined, ids: readonly string[]): boolean {
  if (saved === undefined || saved.length !== ids.length) return false;
  const wanted = new Set(ids);
  return new Set(saved).size === saved.length && saved.every((id) => wanted.has(id));
}

/** A saved layout is used only when it covers exactly these hosts; otherwise the default. */
export function hostLayoutFor(
  saved: readonly GridItem[] | undefined,
  hostIds: readonly string[],
  mode: CardMode,
): CardLayoutItem[] {
  if (
    saved !== undefined &&
    matchesIds(
      saved.map((item) => item.i),
      hostIds,
    )
  ) {
    const { maxH } = CARD_GRID[mode];
    return saved.map(({ i, x, y, w, h }) => ({ i, x, y, w, h, minW: 3, minH: 6, maxW: 12, maxH }));
  }
  return defaultHostLayout(hostIds, mode);
}

/** Hosts in the saved order when it lists exactly them; otherwise as given. */
export function orderedBy<T extends { id: string }>(
  items: readonly T[],
  saved?: readonly string[],
): T[] {
  if (
    !matchesIds(
      saved,
      items.map((i) => i.id),
    ) ||
    saved === undefined
  )
    return [...items];
  const byId = new Map(items.map((i) => [i.id, i]));
  return saved.flatMap((id) => byId.get(id) ?? []);
}

/** Only position and size are kept: what react-grid-layout reports, in our saved shape. */
export function toGridItems(
  layout: readonly { i: string; x: number; y: number; w: number; h: number }[],
): GridItem[] {
  return layout.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));
}

/**
 * The cards that start within the window: the grid's top is `gridTop` px down a window
 * `windowHeight` px tall. Cards lower down can wait for the first screen to be drawn.
 */
export function cardsInWindow(
  layout: readonly { i: string; y: number }[],
  windowHeight: number,
  gridTop: number,
): Set<string> {
  const bottom = windowHeight - gridTop;
  return new Set(
    layout.filter((item) => item.y * (CARD_ROW_HEIGHT + GRID_MARGIN) < bottom).map((i) => i.i),
  );
}

/** A grid item's height in pixels: `h` rows and the margins between them. */
export const gridHeightPx = (h: number, rowHeight: number): number =>
  h * rowHeight + Math.max(0, h - 1) * GRID_MARGIN;

/**
 * The items top to bottom, then left to right: the order a phone's one column shows a saved
 * grid in, so a phone keeps the arrangement made on a desktop without changing it.
 */
export function readingOrder<T extends { x: number; y: number }>(layout: readonly T[]): T[] {
  return [...layout].sort((a, b) => a.y - b.y || a.x - b.x);
}
