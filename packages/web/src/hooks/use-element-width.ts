import { useCallback, useState } from 'react';

/**
 * The width of an element: read once as it is attached, so what is drawn from the width
 * goes in the same frame (the dashboard's 50 cards waited one ResizeObserver round, and one
 * style, layout and paint of the page without them), then followed with ResizeObserver (no
 * forced layout on later changes). `width` is null until the element is attached.
 */
export function useElementWidth(): {
  ref: (el: HTMLElement | null) => void;
  width: number | null;
} {
  const [width, setWidth] = useState<number | null>(null);
  const ref = useCallback((el: HTMLElement | null) => {
    if (el === null) return undefined;
    // A ref callback runs during the commit, before the browser paints: a state set here
    // re-renders synchronously (elements without padding: clientWidth is the content width).
    setWidth(el.clientWidth);
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry !== undefined) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
