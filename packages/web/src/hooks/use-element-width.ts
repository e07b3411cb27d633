import { useCallback, useState } from 'react';

/**
 * The width of an element from ResizeObserver (no forced layout, unlike reading computed
 * styles during render), and where its top was in the window at that first observation
 * (read in the observer's callback, where layout is already done). Both are null until then.
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
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry === undefined) return;
      setTop((first) => first ?? entry.target.getBoundingClientRect().top);
      setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width, top };
}
