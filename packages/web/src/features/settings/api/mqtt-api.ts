import { mqttIntegrationSchema, type MqttSettingsUpdate } from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Polled while shown: the status line follows the broker connection without a live message. */
export const mqttQueryOptions = () =>
  queryOptions({
    queryKey: ['integrations', 'mqtt'],
    queryFn: () => api('/integrations/mqtt', mqttIntegrationSchema),
    refetchInterval: 2000,
  });

export function useSaveMqtt() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MqttSettingsUpdate) =>
      api('/integrations/mqtt', mqttIntegrationSchema, { method: 'PUT', body }),
    onSuccess: (data) => qc.setQueryData(mqttQueryOptions().queryKey, data),
  });
}
