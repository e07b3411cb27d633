import {
  HEALTH_CHECK_DEFAULTS,
  HEALTH_CHECK_MIN_POLL_SECONDS,
  HEALTH_STATUS_UNKNOWN,
  healthCheckConfigsSchema,
  healthCheckSchema,
  healthCheckTestResponseSchema,
  type Container,
  type HealthCheck,
  type HealthCheckConfigInput,
  type HealthCheckTestBody,
} from '@berth/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { useLiveMessages } from '@/lib/live/live-provider';

const path = (c: Pick<Container, 'host_id' | 'id'>) =>
  `/containers/${c.host_id}/${c.id}/http-health-check`;

/** Every stored check's state by composite key (refetched every 60 s). */
export const healthCheckConfigsQueryOptions = () =>
  queryOptions({
    queryKey: ['health-checks', 'configs'],
    queryFn: () => api('/health-check-configs', healthCheckConfigsSchema),
    refetchInterval: 60_000,
  });

/** The disabled default the tab shows when the call fails. */
export function defaultHealthCheck(c: Container): HealthCheck {
  return {
    host_id: c.host_id,
    container_id: c.id,
    container_name: c.name,
    configured: false,
    ...HEALTH_CHECK_DEFAULTS,
    ...HEALTH_STATUS_UNKNOWN,
    resolved_url: null,
    restart_attempts: 0,
    paused_reason: null,
  };
}

export const healthCheckQueryOptions = ({ host_id, id }: Pick<Container, 'host_id' | 'id'>) =>
  queryOptions({
    queryKey: ['health-checks', 'one', host_id, id],
    queryFn: () => api(path({ host_id, id }), healthCheckSchema),
    staleTime: 5000,
    // Polled every max(interval, 10) s, and only while the check is enabled.
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data?.enabled !== true) return false;
      return Math.max(data.check_interval_seconds, HEALTH_CHECK_MIN_POLL_SECONDS) * 1000;
    },
  });

export const useHealthCheck = (c: Container) => useQuery(healthCheckQueryOptions(c));

/** Status transitions arrive live: the table's icons (and an open tab) refresh at once. */
export function useHealthCheckLiveRefresh(c?: Container): void {
  const queryClient = useQueryClient();
  useLiveMessages('health_check_status_changed', ({ data }) => {
    void queryClient.invalidateQueries({ queryKey: healthCheckConfigsQueryOptions().queryKey });
    if (c !== undefined && data.host_id === c.host_id && data.container_name === c.name)
      void queryClient.invalidateQueries({ queryKey: healthCheckQueryOptions(c).queryKey });
  });
  // A transition sent before the socket connected (it waits for the first screen) or while it
  // was down never arrives: every connect refreshes the statuses.
  useLiveMessages('initial_state', () => {
    void queryClient.invalidateQueries({ queryKey: healthCheckConfigsQueryOptions().queryKey });
    if (c !== undefined)
      void queryClient.invalidateQueries({ queryKey: healthCheckQueryOptions(c).queryKey });
  });
}

export function useSaveHealthCheck(c: Container) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: HealthCheckConfigInput) =>
      api(path(c), healthCheckSchema, { method: 'PUT', body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(healthCheckQueryOptions(c).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: healthCheckConfigsQueryOptions().queryKey });
      toast.success('Health check configuration saved');
    },
    onError: (err) =>
      toast.error('Failed to save configuration', {
        description: err instanceof Error ? err.message : 'Unknown error',
      }),
  });
}

export function useTestHealthCheck(c: Container) {
  return useMutation({
    mutationFn: (body: Partial<HealthCheckTestBody>) =>
      api(`${path(c)}/test`, healthCheckTestResponseSchema, { method: 'POST', body }),
    onSuccess: ({ test_result: r }) => {
      const ms = r.response_time_ms === null ? '' : ` (${r.response_time_ms}ms)`;
      if (r.is_healthy)
        toast.success('Health check test passed!', { description: `${r.message}${ms}` });
      else toast.error('Health check test failed', { description: `${r.message}${ms}` });
    },
    onError: (err) =>
      toast.error('Failed to test health check', {
        description: err instanceof Error ? err.message : 'Unknown error',
      }),
  });
}
