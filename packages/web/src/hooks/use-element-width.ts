import { useCallback, useState } from 'react';

/**
 * The width of an element from ResizeObserver (no forced layout, unlike reading computed
 * styles during render). `width` is null until the first observation.
 */
export function useElementWidth(): {
  ref: (el: HTMLElement | null) => void;
  width: number | null;
} {
  const [width, setWidth] = useState<number | null>(null);
  const ref = useCallback((el: HTMLElement | null) => {
    if (el === null) return undefined;
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry !== undefined) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
