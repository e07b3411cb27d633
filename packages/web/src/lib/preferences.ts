import { preferencesSchema, type Preferences, type PreferencesPatch } from '@berth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { preferencesQueryOptions } from './queries';

/** The signed-in user's preferences; `enabled` is false until they may be read. */
export function usePreferences(enabled = true) {
  return useQuery({ ...preferencesQueryOptions(), enabled });
}

/**
 * Saves a partial preference update optimistically; on failure the previous values come
 * back and the error is only logged.
 */
export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  const key = preferencesQueryOptions().queryKey;
  return useMutation({
    mutationFn: (patch: PreferencesPatch) =>
      api('/v2/user/preferences', preferencesSchema, { method: 'PATCH', body: patch }),
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Preferences>(key);
      if (previous !== undefined) {
        queryClient.setQueryData<Preferences>(key, {
          ...previous,
          ...patch,
          dashboard: { ...previous.dashboard, ...patch.dashboard },
        } as Preferences);
      }
      return { previous };
    },
    onError: (err, _patch, context) => {
      console.error('Saving preferences failed', err);
      if (context?.previous !== undefined) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
}
