import {
  alertRuleListSchema,
  alertRuleSchema,
  diskAvailabilitySchema,
  okSchema,
  type AlertRuleCreate,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { alertsRootKey } from '@/lib/alerts';
import { api, ApiError } from '@/lib/api-client';

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

/** What the rule form needs of a notification channel (the channels arrive with their issue). */
const channelSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
});
export type ChannelChoice = z.infer<typeof channelSchema>;

/** GET /notifications/channels; until that call exists (a 404), there are no channels. */
export const channelsQueryOptions = () =>
  queryOptions({
    queryKey: ['notification-channels'],
    queryFn: async (): Promise<ChannelChoice[]> => {
      try {
        const answer = await api(
          '/notifications/channels',
          z.union([z.array(channelSchema), z.object({ channels: z.array(channelSchema) })]),
        );
        return Array.isArray(answer) ? answer : answer.channels;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return [];
        throw err;
      }
    },
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
