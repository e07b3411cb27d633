import {
  viewModeBodySchema,
  type Container,
  type Preferences,
  type ViewMode,
} from '@berth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import {
  alertStatsQueryOptions,
  containerSparklinesQueryOptions,
  containersQueryOptions,
  dashboardHostsQueryOptions,
  preferencesQueryOptions,
  recentEventsQueryOptions,
  updatesSummaryQueryOptions,
} from '@/lib/queries';

export const useDashboardHosts = () => useQuery(dashboardHostsQueryOptions());
export const useAllContainers = () => useQuery(containersQueryOptions());
export const useRecentEvents = () => useQuery(recentEventsQueryOptions(10));
export const useAlertStats = () => useQuery(alertStatsQueryOptions());
export const useUpdatesSummary = () => useQuery(updatesSummaryQueryOptions());

/** One host's containers; structural sharing keeps the array identical while nothing changed. */
export function useHostContainers(hostId: string): Container[] {
  return (
    useQuery({
      ...containersQueryOptions(),
      select: (all) => all.filter((c) => c.host_id === hostId),
    }).data ?? []
  );
}

export function useContainerSparklines() {
  return useQuery(containerSparklinesQueryOptions()).data;
}

/** The view mode through its own call (spec 1 §7), reflected in the preferences at once. */
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
