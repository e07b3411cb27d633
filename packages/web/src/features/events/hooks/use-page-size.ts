import { useEffect, useState } from 'react';
import { DEFAULT_LIMIT, limitForHeight } from '../lib/event-filters';

/**
 * The Event Log's page size: from the window height when the page opens and on
 * every resize; `reset` returns it to 20 until the window next changes size.
 */
export function usePageSize(): [number, () => void] {
  const [limit, setLimit] = useState(() =>
    typeof window === 'undefined' ? DEFAULT_LIMIT : limitForHeight(window.innerHeight),
  );
  useEffect(() => {
    const measure = () => setLimit(limitForHeight(window.innerHeight));
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);
  return [limit, () => setLimit(DEFAULT_LIMIT)];
}
