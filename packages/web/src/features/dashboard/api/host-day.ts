import { metricsResponseSchema, type MetricsResponse } from '@berth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const DAY_S = 24 * 3600;
/** 96 points a day from the 15 min tier: the fewest rows a card's line needs (decision 036). */
export const DAY_STEP_S = 900;
/** A 15 min point closes this often; asking more often finds nothing new. */
const REFRESH_MS = 5 * 60_000;

export const hostDayQueryOptions = (hostId: string) =>
  queryOptions({
    queryKey: ['host-day', hostId],
    queryFn: (): Promise<MetricsResponse> =>
      api(`/hosts/${encodeURIComponent(hostId)}/metrics`, metricsResponseSchema, {
        params: {
          from: new Date(Date.now() - DAY_S * 1000).toISOString(),
          step: String(DAY_STEP_S),
        },
      }),
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
  });

/** A host's last 24 h of history, for a card that shows it instead of live sparklines. */
export const useHostDay = (hostId: string) => useQuery(hostDayQueryOptions(hostId));
