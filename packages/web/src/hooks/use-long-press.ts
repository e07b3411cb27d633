import { useRef, type MouseEvent, type PointerEvent } from 'react';

/** How long a finger rests on a card before it counts as a long press, as on phones' own lists. */
export const LONG_PRESS_MS = 500;
/** A finger that moves further than this is scrolling, not pressing. */
const MOVE_TOLERANCE_PX = 10;

/**
 * Turns a long press on an element into `onLongPress`, for touch and pen (and a held mouse
 * button). `press` goes on the element pressed; `swallowClick` on one that outlives what the
 * press changes (a card whose button becomes a checkbox), so the click the finger's lift may
 * still send neither opens nor toggles what is under it. The browser's own long-press menu is
 * kept off too.
 */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);
  const cancel = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    start.current = null;
  };
  const press = {
    onPointerDown: (e: PointerEvent) => {
      if (e.pointerType === 'mouse' && e.button !== 0) return;
      cancel();
      fired.current = false;
      start.current = { x: e.clientX, y: e.clientY };
      timer.current = setTimeout(() => {
        timer.current = undefined;
        fired.current = true;
        onLongPress();
      }, LONG_PRESS_MS);
    },
    onPointerMove: (e: PointerEvent) => {
      const from = start.current;
      if (from === null) return;
      if (Math.hypot(e.clientX - from.x, e.clientY - from.y) > MOVE_TOLERANCE_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onPointerLeave: cancel,
    onContextMenu: (e: MouseEvent) => {
      if (fired.current || timer.current !== undefined) e.preventDefault();
    },
  };
  const swallowClick = {
    onClickCapture: (e: MouseEvent) => {
      if (!fired.current) return;
      fired.current = false;
      e.preventDefault();
      e.stopPropagation();
    },
  };
  return { press, swallowClick };
}
