import { prometheusSettingsSchema, type PrometheusSettingsUpdate } from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const prometheusQueryOptions = () =>
  queryOptions({
    queryKey: ['integrations', 'prometheus'],
    queryFn: () => api('/integrations/prometheus', prometheusSettingsSchema),
  });

export function useSavePrometheus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PrometheusSettingsUpdate) =>
      api('/integrations/prometheus', prometheusSettingsSchema, { method: 'PUT', body }),
    onSuccess: (data) => qc.setQueryData(prometheusQueryOptions().queryKey, data),
  });
}
