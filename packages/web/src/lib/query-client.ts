import { QueryClient } from '@tanstack/react-query';

/** Defaults of spec 1 §9: stale after a minute, one retry, no refetch on window focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 60_000, retry: 1, refetchOnWindowFocus: false },
    },
  });
}
