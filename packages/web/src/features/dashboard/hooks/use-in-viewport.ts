import { useEffect, useState, type RefObject } from 'react';

/** A card counts as visible within 100 px of the viewport. */
const MARGIN = '100px';

/** Whether the element is on screen (or near it); true until first measured. */
export function useInViewport(ref: RefObject<Element | null>, enabled: boolean): boolean {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!enabled || el === null) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (entry !== undefined) setVisible(entry.isIntersecting);
      },
      { rootMargin: MARGIN },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      setVisible(true);
    };
  }, [ref, enabled]);
  return visible;
}
