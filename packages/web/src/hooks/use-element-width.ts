import { useCallback, useState } from 'react';

/**
 * The width of an element, and where its top was in the window when first measured. Both are
 * read once in the commit that attaches the element, so what depends on them renders in the
 * same task, before the browser paints a frame without it (the layout read is the one that
 * frame would do anyway). Later changes of width come from ResizeObserver. Reading sizes
 * during render instead would force a layout on every render.
 */
export function useElementWidth(): {
  ref: (el: HTMLElement | null) => void;
  width: number | null;
  top: number | null;
} {
  const [width, setWidth] = useState<number | null>(null);
  const [top, setTop] = useState<number | null>(null);
  const ref = useCallback((el: HTMLElement | null) => {
    if (el === null) return undefined;
    const box = el.getBoundingClientRect();
    setTop((first) => first ?? box.top);
    setWidth(Math.round(box.width));
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry !== undefined) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width, top };
}
