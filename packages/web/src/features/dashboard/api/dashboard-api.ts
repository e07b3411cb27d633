import {
  viewModeBodySchema,
  type Container,
  type Preferences,
  type ViewMode,
} from '@berth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '@/lib/api-client';
import {
  alertStatsQueryOptions,
  containersQueryOptions,
  dashboardHostsQueryOptions,
  hostContainersQueryOptions,
  liveContainersQueryOptions,
  preferencesQueryOptions,
  recentEventsQueryOptions,
  updatesSummaryQueryOptions,
} from '@/lib/queries';
import { selectLiveHostFigures, withLiveFigures } from './live-hosts';

/**
 * The hosts (GET /hosts, every 10 s) with the live channel's newer figures merged in as they
 * are read (docs/decisions/006): the live channel writes one cache entry per message.
 */
export function useDashboardHosts() {
  const hosts = useQuery(dashboardHostsQueryOptions());
  const live = useQuery({ ...liveContainersQueryOptions(), select: selectLiveHostFigures }).data;
  const data = useMemo(
    () => (hosts.data === undefined ? undefined : withLiveFigures(hosts.data, live)),
    [hosts.data, live],
  );
  return { data, isPending: hosts.isPending, isError: hosts.isError, error: hosts.error };
}
export const useAllContainers = () => useQuery(containersQueryOptions());
export const useRecentEvents = () => useQuery(recentEventsQueryOptions(10));
export const useAlertStats = () => useQuery(alertStatsQueryOptions());
export const useUpdatesSummary = () => useQuery(updatesSummaryQueryOptions());

/** One host's containers (the same array while none of them changed). */
export const useHostContainers = (hostId: string): Container[] =>
  useQuery(hostContainersQueryOptions(hostId)).data ?? [];

/** The view mode through its own call, reflected in the preferences at once. */
export function useSetViewMode() {
  const queryClient = useQueryClient();
  const key = preferencesQueryOptions().queryKey;
  return useMutation({
    mutationFn: (view_mode: ViewMode) =>
      api('/user/view-mode', viewModeBodySchema, { method: 'POST', body: { view_mode } }),
    onMutate: (view_mode) => {
      const previous = queryClient.getQueryData<Preferences>(key);
      if (previous !== undefined) queryClient.setQueryData(key, { ...previous, view_mode });
      return { previous };
    },
    onError: (err, _mode, context) => {
      console.error('Saving the view mode failed', err);
      if (context?.previous !== undefined) queryClient.setQueryData(key, context.previous);
    },
  });
}
