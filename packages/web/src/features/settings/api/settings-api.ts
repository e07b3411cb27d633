import {
  globalSettingsSchema,
  upgradeNoticeSchema,
  type GlobalSettings,
  type UpdateSettingsRequest,
} from '@berth/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsQueryOptions } from '@/lib/queries';

export function useSettings(enabled = true) {
  return useQuery({ ...settingsQueryOptions(), enabled });
}

/**
 * PUT /settings with a partial update. The cache shows the new value at once and gets the
 * previous one back when the save fails; the caller says what the user sees then.
 */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  const key = settingsQueryOptions().queryKey;
  return useMutation({
    mutationFn: (patch: UpdateSettingsRequest) =>
      api('/settings', globalSettingsSchema, { method: 'PUT', body: patch }),
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<GlobalSettings>(key);
      if (previous !== undefined) {
        const defined = Object.fromEntries(
          Object.entries(patch).filter(([, value]) => value !== undefined),
        );
        queryClient.setQueryData(key, { ...previous, ...defined });
      }
      return { previous };
    },
    onError: (_err, _patch, context) => {
      if (context?.previous !== undefined) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
}

/** Hides the sidebar's update card for one version. */
export function useDismissUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: string) =>
      api('/user/dismiss-dockmon-update', globalSettingsSchema, {
        method: 'POST',
        body: { version },
      }),
    onSuccess: (saved) => queryClient.setQueryData(settingsQueryOptions().queryKey, saved),
  });
}

export const upgradeNoticeQueryOptions = () =>
  queryOptions({
    queryKey: ['upgrade-notice'],
    queryFn: () => api('/upgrade-notice', upgradeNoticeSchema),
    staleTime: Infinity,
    refetchInterval: false,
  });

export function useDismissUpgradeNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api('/upgrade-notice/dismiss', upgradeNoticeSchema, { method: 'POST', body: {} }),
    onMutate: () => {
      const key = upgradeNoticeQueryOptions().queryKey;
      const current = queryClient.getQueryData(key);
      if (current !== undefined) queryClient.setQueryData(key, { ...current, show_notice: false });
    },
    onError: (err) => console.error('Dismissing the upgrade notice failed', err),
  });
}
