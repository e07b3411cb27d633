import {
  alertRuleListSchema,
  alertRuleSchema,
  diskAvailabilitySchema,
  notificationChannelSchema,
  okSchema,
  type AlertRuleCreate,
  type NotificationChannel,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { alertsRootKey } from '@/lib/alerts';
import { api } from '@/lib/api-client';

export const rulesQueryOptions = () =>
  queryOptions({
    queryKey: ['alert-rules'],
    queryFn: () => api('/alerts/rules', alertRuleListSchema),
    staleTime: 30_000,
  });

export const diskAvailabilityQueryOptions = () =>
  queryOptions({
    queryKey: ['alert-rules', 'disk-availability'],
    queryFn: () => api('/alerts/disk-availability', diskAvailabilitySchema),
    staleTime: 60_000,
  });

/** What the rule form needs of a notification channel: a rule names it by its `id`. */
export type ChannelChoice = Pick<NotificationChannel, 'id' | 'name' | 'type' | 'enabled'>;

/** GET /notifications/channels, for the rule form's picker and summary. */
export const channelsQueryOptions = () =>
  queryOptions({
    queryKey: ['notification-channels'],
    queryFn: (): Promise<ChannelChoice[]> =>
      api('/notifications/channels', z.array(notificationChannelSchema)),
    staleTime: 60_000,
  });

export function useRuleMutations() {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: rulesQueryOptions().queryKey });
    void queryClient.invalidateQueries({ queryKey: alertsRootKey() });
  };
  const save = useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: AlertRuleCreate }) =>
      id === null
        ? api('/alerts/rules', alertRuleSchema, { method: 'POST', body })
        : api(`/alerts/rules/${id}`, alertRuleSchema, { method: 'PUT', body }),
    onSuccess: refresh,
  });
  const toggle = useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      api(`/alerts/rules/${id}/toggle`, alertRuleSchema, { method: 'PATCH', body: { enabled } }),
    // The switch moves at once and moves back if the server refuses.
    onMutate: async ({ id, enabled }) => {
      const key = rulesQueryOptions().queryKey;
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData(key);
      queryClient.setQueryData(key, (list) =>
        list === undefined
          ? list
          : { ...list, rules: list.rules.map((r) => (r.id === id ? { ...r, enabled } : r)) },
      );
      return { previous };
    },
    onError: (_err, _vars, context) => {
      if (context?.previous !== undefined)
        queryClient.setQueryData(rulesQueryOptions().queryKey, context.previous);
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/alerts/rules/${id}`, okSchema, { method: 'DELETE' }),
    onSettled: refresh,
  });
  return { save, toggle, remove };
}
