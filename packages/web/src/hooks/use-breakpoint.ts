import { useMediaQuery } from './use-media-query';

/**
 * The three layouts by window width: a phone (under 768 px) gets a top bar and the sidebar as
 * a drawer, a tablet (768–1023 px) the collapsed sidebar, a desktop (1024 px up) the full one.
 */
export type Breakpoint = 'phone' | 'tablet' | 'desktop';

/** The widest phone and tablet windows; the .98 keeps fractional widths (zoom) on one side. */
export const PHONE_MAX_WIDTH = 767.98;
export const TABLET_MAX_WIDTH = 1023.98;

export const PHONE_QUERY = `(max-width: ${PHONE_MAX_WIDTH}px)`;
/** Phones and tablets: every window narrower than the desktop layout. */
export const NARROW_QUERY = `(max-width: ${TABLET_MAX_WIDTH}px)`;

/** The layout for a window `width` CSS pixels wide (the same cut as the media queries). */
export function breakpointOf(width: number): Breakpoint {
  if (width <= PHONE_MAX_WIDTH) return 'phone';
  if (width <= TABLET_MAX_WIDTH) return 'tablet';
  return 'desktop';
}

/** The current layout, following the window as it is resized or turned. */
export function useBreakpoint(): Breakpoint {
  const phone = useMediaQuery(PHONE_QUERY);
  const narrow = useMediaQuery(NARROW_QUERY);
  if (phone) return 'phone';
  return narrow ? 'tablet' : 'desktop';
}

/** True under 768 px: the phone layout (card lists, filter sheets, full-screen dialogs). */
export const usePhone = (): boolean => useMediaQuery(PHONE_QUERY);
