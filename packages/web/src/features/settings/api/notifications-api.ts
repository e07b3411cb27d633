import {
  channelDependentsSchema,
  channelTestResultSchema,
  notificationChannelSchema,
  templatePreviewSchema,
  templateVariablesSchema,
  webPushKeySchema,
  type ChannelCreate,
  type ChannelUpdate,
  type TemplatePreviewRequest,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

export const notificationChannelsQueryOptions = () =>
  queryOptions({
    queryKey: ['settings', 'notification-channels'],
    queryFn: () => api('/notifications/channels', z.array(notificationChannelSchema)),
  });

export const channelDependentsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['settings', 'notification-channels', id, 'dependents'],
    queryFn: () => api(`/notifications/channels/${id}/dependent-alerts`, channelDependentsSchema),
    staleTime: 0,
  });

export const templateVariablesQueryOptions = () =>
  queryOptions({
    queryKey: ['settings', 'template-variables'],
    queryFn: () => api('/notifications/template-variables', templateVariablesSchema),
    staleTime: Infinity,
  });

/** Berth's VAPID public key: made once, so asked for once. */
export const webPushKeyQueryOptions = () =>
  queryOptions({
    queryKey: ['settings', 'web-push-key'],
    queryFn: () => api('/notifications/web-push/key', webPushKeySchema),
    staleTime: Infinity,
  });

export const templatePreviewQueryOptions = (body: TemplatePreviewRequest) =>
  queryOptions({
    queryKey: ['settings', 'template-preview', body],
    queryFn: () =>
      api('/notifications/template-preview', templatePreviewSchema, { method: 'POST', body }),
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });

export function useChannelMutations() {
  const queryClient = useQueryClient();
  // The list only: a deleted channel's dependents are not asked for again.
  const refresh = () =>
    queryClient.invalidateQueries({
      queryKey: notificationChannelsQueryOptions().queryKey,
      exact: true,
    });
  const create = useMutation({
    mutationFn: (body: ChannelCreate) =>
      api('/notifications/channels', notificationChannelSchema, { method: 'POST', body }),
    onSettled: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: ChannelUpdate }) =>
      api(`/notifications/channels/${id}`, notificationChannelSchema, { method: 'PUT', body }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      api(`/notifications/channels/${id}`, z.object({ status: z.string() }), { method: 'DELETE' }),
    onSettled: refresh,
  });
  const test = useMutation({
    mutationFn: (id: number) =>
      api(`/notifications/channels/${id}/test`, channelTestResultSchema, {
        method: 'POST',
        body: {},
      }),
    onSettled: refresh,
  });
  return { create, update, remove, test };
}
