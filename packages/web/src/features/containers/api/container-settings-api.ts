import {
  containerSchema,
  tagsResponseSchema,
  type Container,
  type DesiredState,
} from '@berth/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { api } from '@/lib/api-client';
import { containerKeyOf } from '@berth/contracts';
import { liveContainersQueryOptions, type ContainersData } from '@/lib/queries';

const DESIRED_LABEL: Record<DesiredState, string> = {
  should_run: 'Should Run',
  on_demand: 'On-Demand',
  unspecified: 'Unspecified',
};

/**
 * Applies a change to one container in the cached list at once and puts it back if the
 * server refuses (switches are optimistic).
 */
function useOptimisticContainer<V>(
  send: (c: Container, value: V) => Promise<unknown>,
  apply: (c: Container, value: V) => Container,
  messages: { ok: (value: V) => string; failed: string },
) {
  const queryClient = useQueryClient();
  const key = liveContainersQueryOptions().queryKey;
  return useMutation({
    mutationFn: ({ container, value }: { container: Container; value: V }) =>
      send(container, value),
    onMutate: async ({ container, value }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<ContainersData>(key);
      queryClient.setQueryData<ContainersData>(
        key,
        (data) =>
          data && {
            ...data,
            containers: data.containers.map((c) =>
              containerKeyOf(c) === containerKeyOf(container) ? apply(c, value) : c,
            ),
          },
      );
      return { previous };
    },
    onError: (err, _vars, context) => {
      if (context?.previous !== undefined) queryClient.setQueryData(key, context.previous);
      toast.error(messages.failed, {
        description: err instanceof Error ? err.message : 'Unknown error',
      });
    },
    onSuccess: (_res, { value }) => toast.success(messages.ok(value)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

const path = (c: Container, suffix: string) => `/hosts/${c.host_id}/containers/${c.id}/${suffix}`;

export const useSetAutoRestart = () =>
  useOptimisticContainer<boolean>(
    (c, enabled) =>
      api(path(c, 'auto-restart'), containerSchema, {
        method: 'POST',
        body: { enabled, container_name: c.name },
      }),
    (c, enabled) => ({ ...c, auto_restart: enabled }),
    {
      ok: (on) => `Auto-restart ${on ? 'enabled' : 'disabled'}`,
      failed: 'Failed to update auto-restart',
    },
  );

export const useSetDesiredState = () =>
  useOptimisticContainer<DesiredState>(
    (c, desired_state) =>
      api(path(c, 'desired-state'), containerSchema, {
        method: 'POST',
        body: { desired_state, container_name: c.name },
      }),
    (c, desired_state) => ({ ...c, desired_state }),
    {
      ok: (d) => `Desired state set to ${DESIRED_LABEL[d]}`,
      failed: 'Failed to update desired state',
    },
  );

export const useSetWebUiUrl = () =>
  useOptimisticContainer<string | null>(
    (c, web_ui_url) =>
      api(path(c, 'desired-state'), containerSchema, {
        method: 'POST',
        body: { desired_state: c.desired_state, web_ui_url },
      }),
    (c, web_ui_url) => ({ ...c, web_ui_url }),
    { ok: () => 'WebUI URL saved', failed: 'Failed to save WebUI URL' },
  );

export const usePatchContainerTags = () =>
  useOptimisticContainer<{ add: string[]; remove: string[] }>(
    (c, { add, remove }) =>
      api(path(c, 'tags'), tagsResponseSchema, {
        method: 'PATCH',
        body: { tags_to_add: add, tags_to_remove: remove },
      }),
    (c, { add, remove }) => ({
      ...c,
      tags: [...new Set([...c.tags, ...add])].filter((t) => !remove.includes(t)),
    }),
    { ok: () => 'Container tags updated successfully', failed: 'Failed to update container tags' },
  );

/** GET /tags/suggest, debounced 200 ms, at most 10 suggestions. */
const SUGGEST_DEBOUNCE_MS = 200;
const SUGGEST_LIMIT = 10;

export function useContainerTagSuggestions(text: string, enabled: boolean) {
  const q = useDebouncedValue(text.trim().toLowerCase(), SUGGEST_DEBOUNCE_MS);
  return useQuery({ ...tagSuggestionsQueryOptions(q), enabled });
}

const tagSuggestionsQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ['tags', 'suggest', q],
    queryFn: () =>
      api('/tags/suggest', tagsResponseSchema, { params: { q, limit: SUGGEST_LIMIT } }),
    staleTime: 10_000,
    select: (r) => r.tags,
  });
